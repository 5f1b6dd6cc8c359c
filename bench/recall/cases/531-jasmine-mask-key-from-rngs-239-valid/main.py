from typing import Dict

import jax
import jax.numpy as jnp
from flax import nnx


def patchify(videos, size):
    B, T, H, W, C = videos.shape
    x = videos.reshape(B, T, H // size, size, W // size, size, C)
    x = x.transpose(0, 1, 2, 4, 3, 5, 6)
    return x.reshape(B, T, (H // size) * (W // size), size * size * C)


class TokenizerMAE(nnx.Module):
    def __init__(self, patch_size: int, latent_dim: int, mask_limit: float, rngs: nnx.Rngs):
        self.patch_size = patch_size
        self.mask_limit = mask_limit
        self.encoder = nnx.Linear(patch_size * patch_size * 3, latent_dim, rngs=rngs)

    def mask_and_encode(
        self, videos: jax.Array, rng: nnx.Rngs, training: bool = True
    ) -> Dict[str, jax.Array]:
        # --- Preprocess videos ---
        B, T = videos.shape[:2]
        patch_BTNP = patchify(videos, self.patch_size)
        N = patch_BTNP.shape[2]

        # --- Randomly mask patches ---
        if training:
            _rng_prob, _rng_mask = jax.random.split(rng(), 2)
            mask_prob = jax.random.uniform(_rng_prob, minval=self.mask_limit)
            mask = jax.random.bernoulli(_rng_mask, mask_prob, (B, T, N))
        else:
            mask = jnp.zeros((B, T, N), dtype=bool)
        patch_BTNP = jnp.where(mask[..., None], 0.0, patch_BTNP)
        return {"z": self.encoder(patch_BTNP), "mask": mask}


if __name__ == "__main__":
    model = TokenizerMAE(patch_size=4, latent_dim=8, mask_limit=0.5, rngs=nnx.Rngs(0))
    videos = jnp.ones((2, 3, 16, 16, 3))
    rngs = nnx.Rngs(1)
    out1 = model.mask_and_encode(videos, rngs)  # step 1
    out2 = model.mask_and_encode(videos, rngs)  # step 2
    print("same mask:", bool((out1["mask"] == out2["mask"]).all()))
