import flax.linen as nn
import jax.numpy as jnp


class GPT2Config:
    def __init__(self, vocab_size=50257, n_embd=16, n_positions=32):
        self.vocab_size = vocab_size
        self.n_embd = n_embd
        self.n_positions = n_positions


class FlaxGPT2LMHeadModule(nn.Module):
    config: GPT2Config

    def setup(self):
        self.wte = nn.Embed(self.config.vocab_size, self.config.n_embd)
        self.wpe = nn.Embed(self.config.n_positions, self.config.n_embd)
        self.ln_f = nn.LayerNorm()

    def __call__(self, input_ids):
        position_ids = jnp.arange(input_ids.shape[-1])[None, :]
        hidden_states = self.wte(input_ids) + self.wpe(position_ids)
        hidden_states = self.ln_f(hidden_states)
        # tied output embedding
        return self.wte.attend(hidden_states)
