import jax
import jax.numpy as jnp


class DynamicsMaskGIT:
    """MaskGIT dynamics model (the noise augmentation of the PR only)."""

    def __init__(self, max_noise_level: float = 0.7, mask_limit: float = 0.5):
        self.max_noise_level = max_noise_level
        self.mask_limit = mask_limit

    def __call__(self, vid_embed_BTNM, rng):
        B, T, N, M = vid_embed_BTNM.shape
        rng, _rng_mask = jax.random.split(rng)
        mask_prob = jax.random.uniform(_rng_mask, shape=(B,), minval=self.mask_limit)

        # --- Sample noise ---
        rng, _rng_noise = jax.random.split(rng)
        noise_level_B = jax.random.uniform(
            _rng_noise, shape=(B,), minval=0.0, maxval=self.max_noise_level
        )
        noise_BTNM = jax.random.normal(_rng_noise, shape=(B, T, N, M))
        noisy_vid_embed_BTNM = vid_embed_BTNM + noise_level_B[:, None, None, None] * noise_BTNM
        return noisy_vid_embed_BTNM, mask_prob
