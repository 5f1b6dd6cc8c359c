import jax
import jax.numpy as jnp

from tx_lite.models import TinyLM

if __name__ == "__main__":
    k1, k2 = jax.random.split(jax.random.key(0))
    model = TinyLM(embed=jax.random.normal(k1, (16, 8)),
                   lm_head=jax.random.normal(k2, (8, 16)))
    input_ids = jnp.array([[1, 2, 3, 4]])
    attention_mask = jnp.ones((1, 4), dtype=jnp.int32)
    for _ in range(3):
        print("next token:", model.generate(input_ids, attention_mask))
