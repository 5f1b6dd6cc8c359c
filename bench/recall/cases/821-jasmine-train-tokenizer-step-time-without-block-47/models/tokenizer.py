import flax.linen as nn
import jax.numpy as jnp


class TokenizerVQVAE(nn.Module):
    """Tokenizer (reduced: an encoder and a decoder, no vector quantisation)."""

    latent_dim: int = 32
    patch_dim: int = 48

    @nn.compact
    def __call__(self, batch, training: bool = True):
        z = nn.Dense(self.latent_dim, name="encoder")(batch["videos"])
        z = nn.Dropout(0.1, deterministic=not training)(z)
        recon = nn.Dense(self.patch_dim, name="decoder")(z)
        return dict(recon=recon, z=z)
