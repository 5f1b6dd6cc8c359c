import jax
import jax.numpy as jnp
import optax
from jax import grad
from jax.tree_util import tree_multimap


def loss(params, x, y):
    return jnp.mean((x @ params["w"] - y) ** 2)


if __name__ == "__main__":
    x = jnp.ones((4, 3))
    y = jnp.zeros(4)
    alpha = 0.1
    p = {"w": jnp.ones(3)}
    p2 = {"w": jnp.full(3, 0.5)}
    opt = optax.sgd(alpha)
    state = opt.init(p)

    grads = grad(loss)(p2, x, y)
    inner_sgd_fn = lambda g, state: (state - alpha*g)
    p = tree_multimap(inner_sgd_fn, grads, p2)

    grads = jax.grad(loss)(p2, x, y)
    updates, state = opt.update(grads, state)
    p = optax.apply_updates(p, updates)
    print(p)
