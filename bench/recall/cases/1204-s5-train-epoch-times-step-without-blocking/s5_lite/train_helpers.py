from functools import partial
import jax
import jax.numpy as np
from flax.training import train_state
import optax
from timeit import default_timer as dt


def create_train_state(model_cls, rng, in_dim, lr):
    model = model_cls(training=True)
    dummy_input = np.ones((1, in_dim))
    params = model.init({"params": rng, "dropout": rng}, dummy_input)["params"]
    tx = optax.adamw(learning_rate=lr)
    return train_state.TrainState.create(apply_fn=model.apply, params=params, tx=tx)


def prep_batch(batch):
    inputs, targets = batch
    return inputs, targets


def train_epoch(state, rng, model, trainloader):
    """
    Training function for an epoch that loops over batches.
    """
    # Store Metrics
    model = model(training=True)
    batch_losses, times = [], []

    for batch_idx, batch in enumerate(trainloader):
        inputs, labels = prep_batch(batch)
        rng, drop_rng = jax.random.split(rng)
        st = dt()
        state, loss = train_step(
            state,
            drop_rng,
            inputs,
            labels,
            model,
        )
        times.append(dt() - st)
        batch_losses.append(loss)

    # Return average loss over batches
    return state, np.mean(np.array(batch_losses)), np.sum(np.asarray(times))


@partial(jax.jit, static_argnums=(4,))
def train_step(state,
               rng,
               batch_inputs,
               batch_labels,
               model,
               ):
    """Performs a single training step given a batch of data"""
    def loss_fn(params):
        logits = model.apply({"params": params}, batch_inputs, rngs={"dropout": rng})
        return np.mean((logits - batch_labels) ** 2)

    loss, grads = jax.value_and_grad(loss_fn)(state.params)
    state = state.apply_gradients(grads=grads)
    return state, loss
