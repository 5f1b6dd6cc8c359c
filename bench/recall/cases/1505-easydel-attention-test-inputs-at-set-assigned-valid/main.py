import jax.numpy as jnp

from easydel_lite import AttentionModule

if __name__ == "__main__":
    L = 8
    b, out = AttentionModule.test_attentions(batch_size=1, sequence_length=L,
                                             num_attention_heads=2, num_key_value_heads=2)
    # the last query row is fully visible under the causal mask: only the padding mask hides keys
    print("padding masked:", bool(jnp.isinf(b[0, 0, -1, L // 2:]).all()))
