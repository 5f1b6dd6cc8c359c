import jax
import jax.numpy as jnp
import optax


def ntxent(embeddings, labels, temperature=0.07):
  # cosine similarity, with the zero-norm rows guarded by a where
  norm_emb = jnp.linalg.norm(embeddings, axis=1, keepdims=True)
  norm_emb = jnp.where(norm_emb == 0.0, 1.0, norm_emb)
  embeddings = embeddings / norm_emb
  xcs = jnp.matmul(embeddings, embeddings.T) / temperature
  xcs = jnp.where(jnp.eye(labels.shape[0], dtype=bool), -1e9, xcs)
  positives = jnp.argmax(
      (labels[:, None] == labels[None, :]) & ~jnp.eye(labels.shape[0], dtype=bool),
      axis=1)
  return optax.softmax_cross_entropy_with_integer_labels(xcs, positives).mean()


if __name__ == "__main__":
  embeddings = jnp.array([[1.0, 2.0, 3.0], [1.5, 2.5, 3.5], [0.0, 0.0, 0.0], [3.0, 1.0, 0.5]])
  labels = jnp.array([0, 0, 1, 1])
  print("loss:", ntxent(embeddings, labels))
  g = jax.grad(ntxent)(embeddings, labels)
  print("nan gradient:", bool(jnp.isnan(g).any()))
