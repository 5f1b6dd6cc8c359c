import jax.numpy as jnp
from jax import jit

if __name__ == "__main__":
    try:
        print(jit(jnp.sum)(jnp.arange(4), 0))
    except Exception as e:
        print(type(e).__name__, str(e).splitlines()[0], str(e).splitlines()[1])
