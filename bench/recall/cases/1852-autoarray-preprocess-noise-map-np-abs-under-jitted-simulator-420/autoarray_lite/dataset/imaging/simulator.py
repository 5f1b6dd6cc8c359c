import jax.numpy as jnp

from autoarray_lite.dataset import preprocess
from autoarray_lite.structures.arrays import Array2D


class SimulatorImaging:
    def __init__(self, exposure_time, background_sky_level, use_jax=False):
        self.exposure_time = exposure_time
        self.background_sky_level = background_sky_level
        self.use_jax = use_jax

    def via_image_from(self, image):
        exposure_time_map = Array2D(jnp.full(image.array.shape, self.exposure_time))
        image = image.with_new_array(image.array + self.background_sky_level)
        noise_map = preprocess.noise_map_via_data_eps_and_exposure_time_map_from(
            data_eps=image, exposure_time_map=exposure_time_map
        )
        return image, noise_map
