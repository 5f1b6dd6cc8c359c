import jax
import jax.numpy as jnp
import flax.linen as nn


class LlamaConfig:
    def __init__(self, hidden_size=16, num_attention_heads=2, max_sequence_length=8):
        self.hidden_size = hidden_size
        self.num_attention_heads = num_attention_heads
        self.max_sequence_length = max_sequence_length


def create_sinusoidal_positions(num_pos, dim):
    inv_freq = 1.0 / (10000 ** (jnp.arange(0, dim, 2) / dim))
    sinusoid_inp = jnp.einsum("i , j -> i j", jnp.arange(num_pos), inv_freq).astype("float32")
    sin, cos = jnp.sin(sinusoid_inp), jnp.cos(sinusoid_inp)

    sentinel = dim // 2 + dim % 2
    out = jnp.zeros((num_pos, dim))
    out[:, 0:sentinel] = sin
    out[:, sentinel:] = cos

    return jnp.array(out)


class FlaxLlamaAttention(nn.Module):
    config: LlamaConfig
    dtype: jnp.dtype = jnp.float32

    def setup(self):
        config = self.config
        self.embed_dim = config.hidden_size
        self.num_heads = config.num_attention_heads
        self.head_dim = self.embed_dim // self.num_heads
        self.wq = nn.Dense(config.num_attention_heads * self.head_dim, dtype=self.dtype, use_bias=False)
        self.freqs_cis = create_sinusoidal_positions(
            config.max_sequence_length,
            self.head_dim
        )

    def __call__(self, hidden_states):
        query = self.wq(hidden_states)
        return query, self.freqs_cis
