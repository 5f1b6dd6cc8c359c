import jax
import jax.numpy as jnp


@jax.jit
def positives(x):
    return x[x > 0]


if __name__ == "__main__":
    print(positives(jnp.array([-1.0, 2.0, 3.0])))
