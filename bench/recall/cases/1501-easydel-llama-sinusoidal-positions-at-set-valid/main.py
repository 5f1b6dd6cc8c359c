import jax
import jax.numpy as jnp

from easydel_lite import FlaxLlamaAttention, LlamaConfig

if __name__ == "__main__":
    config = LlamaConfig()
    attn = FlaxLlamaAttention(config)
    x = jnp.ones((1, config.max_sequence_length, config.hidden_size))
    params = attn.init(jax.random.PRNGKey(0), x)
    _, freqs = attn.apply(params, x)
    print("freqs:", freqs.shape)
