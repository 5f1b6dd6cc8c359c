import jax
import jax.numpy as jnp


@jax.jit
def step(x):
    print("step input:", x)
    return x * 0.5


if __name__ == "__main__":
    x = jnp.ones(3)
    for _ in range(3):
        x = step(x)
    print(x)
