import jax
import jax.numpy as jnp

from herculens_lite.Instrument.noise import Noise


def sersic_image(amp, R_sersic, n=64):
    # a round Sersic-like light profile on an n x n pixel grid (stands for the lens image model)
    x = jnp.linspace(-2.0, 2.0, n)
    r = jnp.hypot(x[:, None], x[None, :])
    return amp * jnp.exp(-((r / R_sersic) ** 0.5))


if __name__ == "__main__":
    noise = Noise(64, 64, exposure_time=1000.0, background_rms=0.01)

    @jax.jit
    def simulate(amp, R_sersic, key):
        model = sersic_image(amp, R_sersic)
        return model + noise.realisation(model, key)

    try:
        data = simulate(10.0, 0.5, jax.random.PRNGKey(42))
        print("simulated image:", data.shape)
    except jax.errors.TracerArrayConversionError as e:
        print("TracerArrayConversionError:", str(e).splitlines()[0])
