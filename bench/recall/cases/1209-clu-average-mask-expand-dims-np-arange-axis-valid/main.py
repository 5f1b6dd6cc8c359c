import jax
import jax.numpy as jnp

from clu_lite import metrics


@jax.jit
def eval_step(logits, labels, example_mask):
  # per-token losses of a batch of sequences, one mask entry per example
  per_token_loss = jnp.square(logits - labels)
  return metrics.Average.from_model_output(per_token_loss, mask=example_mask)


if __name__ == "__main__":
  logits = jnp.ones((4, 8))
  labels = jnp.zeros((4, 8))
  example_mask = jnp.array([1, 1, 1, 0])
  try:
    print("eval loss:", float(eval_step(logits, labels, example_mask).compute()))
  except jax.errors.TracerIntegerConversionError as e:
    print("TracerIntegerConversionError:", str(e).splitlines()[0])
