import jax
import jax.numpy as jnp


def JU(x):
    ret = jnp.sum(jnp.cos(x) * x)
    print("JUtotal: ", ret)
    return ret


if __name__ == "__main__":
    jax.grad(JU)(jnp.arange(6.0))
