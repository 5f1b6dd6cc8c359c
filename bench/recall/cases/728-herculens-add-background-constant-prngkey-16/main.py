import jax.numpy as jnp

from herculens_lite.noise import Noise

if __name__ == "__main__":
    noise = Noise(background_rms=0.1)
    model = jnp.ones((8, 8))
    sim1 = model + noise.realisation(model)
    sim2 = model + noise.realisation(model)
    print("identical noise realisations:", bool(jnp.all(sim1 == sim2)))
