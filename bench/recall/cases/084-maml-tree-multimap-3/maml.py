import jax
import jax.numpy as jnp
from jax import grad


def loss(params, inputs, targets):
    return jnp.mean((params["w"] * inputs - targets) ** 2)


def inner_update(p, x1, y1, alpha=.1):
    grads = grad(loss)(p, x1, y1)
    inner_sgd_fn = lambda g, state: (state - alpha*g)
    return jax.tree_util.tree_multimap(inner_sgd_fn, grads, p)


if __name__ == "__main__":
    inner_update({"w": jnp.ones(())}, jnp.arange(3.0), jnp.arange(3.0))
