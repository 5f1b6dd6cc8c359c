import jax
import jax.numpy as jnp

import models as lm1b_models

if __name__ == "__main__":
  model = lm1b_models.TransformerLM(vocab_size=32)
  params = model.init(jax.random.PRNGKey(0), jnp.ones((1, 3), jnp.float32))

  ok = model.apply(params, jnp.array([[0, 1, 2]]))
  out = model.apply(params, jnp.array([[100, 101, 102]]))  # < Out of vocabulary token ids don't raise error
  print("in-vocab logits finite:", bool(jnp.isfinite(ok).all()))
  print("out-of-vocab logits nan:", bool(jnp.isnan(out).any()))
