from jax.config import config

config.update("jax_enable_x64", True)

if __name__ == "__main__":
    import jax.numpy as jnp
    print(jnp.zeros(2).dtype)
