import jax
import jax.numpy as jnp

from autoarray_lite.dataset.imaging.simulator import SimulatorImaging
from autoarray_lite.structures.arrays import Array2D

simulator = SimulatorImaging(exposure_time=300.0, background_sky_level=0.1, use_jax=True)


@jax.jit
def simulate(image):
    return simulator.via_image_from(image=image)


if __name__ == "__main__":
    image = Array2D(jnp.ones((60, 60)))
    try:
        data, noise_map = simulate(image)
        print("simulated:", noise_map.array.shape)
    except Exception as e:
        print(type(e).__name__, str(e).splitlines()[0])
