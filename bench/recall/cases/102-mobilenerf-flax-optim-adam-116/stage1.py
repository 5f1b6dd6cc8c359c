import flax
import jax
import jax.numpy as jnp

adam_kwargs = {"beta1": 0.9, "beta2": 0.999, "eps": 1e-15}

if __name__ == "__main__":
    model_vars = {"params": {"w": jnp.zeros(3)}}
    state = flax.optim.Adam(**adam_kwargs).create(model_vars)
