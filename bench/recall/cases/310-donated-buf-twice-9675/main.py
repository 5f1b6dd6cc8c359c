import jax
import jax.numpy as jnp

print("Jax Version: ", jax.__version__)

buf = jax.numpy.array(1)


def f(x):
    return x + 1


f_jit = jax.jit(f, donate_argnums=(0,))

if __name__ == "__main__":
    f_jit(buf)
    f_jit(buf)
