import jax
import jax.numpy as jnp


def add(x, y):
    return x + y


f = jax.jit(add)
x = jnp.zeros((10,), jnp.float32)

if __name__ == "__main__":
    out = f(x, x)
    out.block_until_ready()
    print("ran:", out.tolist() == [0.0] * 10)
