import jax
import jax.numpy as jnp


def add(x, y):
    return x + y


f = jax.jit(add, donate_argnums=(0,))
x = jnp.zeros((10,), jnp.float32)

if __name__ == "__main__":
    try:
        out = f(x, x)  # Hangs
        out.block_until_ready()
        print("ran:", out)
    except Exception as e:
        print(type(e).__name__, str(e).splitlines()[0])
