import jax
import jax.numpy as jnp


def step_fn(batch, teacher_forcing):
    def _through_time(batch, t):
        predicted = batch[t] * 0.5
        batch = jax.lax.cond(
            teacher_forcing, lambda x: x,
            lambda x: jax.ops.index_update(x, t + 1, predicted), batch)
        return batch, jnp.sum(predicted)

    batch, losses = jax.lax.scan(_through_time, batch, jnp.arange(batch.shape[0] - 1))
    return batch, losses


if __name__ == "__main__":
    print(step_fn(jnp.ones((4, 3)), False))
