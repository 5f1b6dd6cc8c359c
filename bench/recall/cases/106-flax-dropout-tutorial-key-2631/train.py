import jax
import jax.numpy as jnp
import optax
from flax.training import train_state

from model import MyModel


@jax.jit
def train_step(state, batch, dropout_key):
    def loss_fn(params):
        logits = state.apply_fn({"params": params}, batch["image"], training=True,
                                rngs={"dropout": dropout_key})
        return jnp.mean((logits - batch["label"]) ** 2), logits

    (loss, logits), grads = jax.value_and_grad(loss_fn, has_aux=True)(state.params)
    return state.apply_gradients(grads=grads), logits


def train_loop(state, batches, dropout_key):
    outs = []
    for batch in batches:
        state, logits = train_step(state, batch, dropout_key)
        outs.append(logits)
    return state, outs


if __name__ == "__main__":
    root_key = jax.random.PRNGKey(seed=0)
    main_key, params_key, dropout_key = jax.random.split(key=root_key, num=3)
    my_model = MyModel(num_neurons=8)
    x = jnp.ones((4, 3))
    variables = my_model.init(params_key, x, training=False)
    state = train_state.TrainState.create(apply_fn=my_model.apply, params=variables["params"],
                                          tx=optax.sgd(0.0))
    batch = {"image": x, "label": jnp.zeros((4, 8))}
    state, outs = train_loop(state, [batch, batch], dropout_key)
    print("same dropout mask:", bool(((outs[0] == 0) == (outs[1] == 0)).all()))
