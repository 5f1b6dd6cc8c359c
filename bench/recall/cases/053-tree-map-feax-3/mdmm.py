import jax
import jax.numpy as jnp


def update(params, grads, lr=1e-2):
    return jax.tree_map(lambda p, g: p - lr * g, params, grads)


if __name__ == "__main__":
    update({"lmbda": jnp.zeros(3)}, {"lmbda": jnp.ones(3)})
