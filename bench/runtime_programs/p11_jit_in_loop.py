import jax
import jax.numpy as jnp


def repeat_double(x, steps):
    for _ in range(steps):
        x = jax.jit(lambda v: v * 2.0)(x)
    return x


if __name__ == "__main__":
    print(repeat_double(jnp.ones(3), 4))
