import functools as ft

import equinox as eqx
import jax

from model import AnotherModule


@ft.partial(jax.jit, static_argnums=1)  # `static` must be a PyTree of non-arrays.
@jax.grad  # differentiates with respect to `params`, as it is the first argument
def loss(params, static, x, y):
    model = eqx.combine(params, static)
    pred_y = jax.vmap(model)(x)
    return jax.numpy.mean((y - pred_y) ** 2)


if __name__ == "__main__":
    x_key, y_key, model_key = jax.random.split(jax.random.PRNGKey(0), 3)
    x, y = jax.random.normal(x_key, (100, 2)), jax.random.normal(y_key, (100, 2))
    model = AnotherModule(model_key)
    params, static = eqx.partition(model, eqx.is_array)
    grads = loss(params, static, x, y)
    print("grad leaves:", len(jax.tree_util.tree_leaves(grads)))
