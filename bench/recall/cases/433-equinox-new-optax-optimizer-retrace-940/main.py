from jaxtyping import Array, Float
import equinox as eqx
import optax
from jax import numpy as jnp
import jax


class Simple(eqx.Module):
    layer: eqx.nn.Linear

    def __init__(self, key):
        self.layer = eqx.nn.Linear(10, 1, key=key)

    def __call__(self, x: Float[Array, "10"]) -> Float[Array, "1"]:
        x = self.layer(x)
        return x


def loss_fn(model, x, y):
    y_pred = model(x)
    return jnp.mean((y - y_pred) ** 2)


loss_grad = eqx.filter_jit(eqx.filter_value_and_grad(eqx.debug.assert_max_traces(loss_fn, max_traces=1), has_aux=False))


def test_no_closure_two_opts():

    key = jax.random.PRNGKey(0)
    key1, key2 = jax.random.split(key)
    model = Simple(key)
    x = jax.random.normal(key1, (10,))
    y = jax.random.normal(key2, (1,))

    @eqx.filter_jit
    @eqx.debug.assert_max_traces(max_traces=1)
    def step(model, optimizer, opt_state, x, y):
        loss, grads = loss_grad(model, x, y)
        updates, opt_state = optimizer.update(grads, opt_state, model)
        model = eqx.apply_updates(model, updates)
        return model, opt_state, loss

    for _ in range(2):
        optimizer = optax.adam(1e-3)
        opt_state = optimizer.init(eqx.filter(model, eqx.is_array))
        model, opt_state, loss = step(model, optimizer, opt_state, x, y)


if __name__ == "__main__":
    test_no_closure_two_opts()
