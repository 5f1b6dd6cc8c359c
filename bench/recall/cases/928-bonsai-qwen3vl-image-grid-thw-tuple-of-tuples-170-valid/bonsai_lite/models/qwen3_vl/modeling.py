import functools
from typing import Tuple, TypeAlias

import jax
import jax.numpy as jnp
from flax import nnx

Array = jax.Array

# One entry per image/video: ((T1, H1, W1), (T2, H2, W2), ...)
GridTHW: TypeAlias = tuple[tuple[int, int, int], ...]


class Qwen3VLVisionModel(nnx.Module):
    def __init__(self, num_grid_per_side, hidden, rngs):
        self.num_grid_per_side = num_grid_per_side
        self.pos_embed = nnx.Param(jax.random.normal(rngs.params(), (num_grid_per_side * num_grid_per_side, hidden)))

    def _fast_pos_embed_interpolate_single(self, grid_t: int, grid_h: int, grid_w: int) -> Array:
        """Bilinear interpolation for position embeddings for a single image."""
        h_idxs = jnp.linspace(0, self.num_grid_per_side - 1, grid_h)
        w_idxs = jnp.linspace(0, self.num_grid_per_side - 1, grid_w)
        idx = (jnp.round(h_idxs)[:, None] * self.num_grid_per_side + jnp.round(w_idxs)[None, :]).astype(jnp.int32)
        pos_embeds = self.pos_embed[...][idx.reshape(-1)]
        return jnp.tile(pos_embeds, (grid_t, 1))

    def _fast_pos_embed_interpolate(self, grid_thw: GridTHW) -> Array:
        """Bilinear interpolation for position embeddings, handles multiple images."""
        results = [
            self._fast_pos_embed_interpolate_single(grid_t, grid_h, grid_w) for grid_t, grid_h, grid_w in grid_thw
        ]
        return jnp.concatenate(results, axis=0)

    def __call__(self, hidden_states: Array, grid_thw: GridTHW) -> Array:
        return hidden_states + self._fast_pos_embed_interpolate(grid_thw)


class Qwen3VLForConditionalGeneration(nnx.Module):
    def __init__(self, vocab, hidden, rngs):
        self.visual = Qwen3VLVisionModel(4, hidden, rngs)
        self.embed = nnx.Embed(vocab, hidden, rngs=rngs)
        self.lm_head = nnx.Linear(hidden, vocab, rngs=rngs)

    def __call__(self, input_ids, cache, pixel_values=None, image_grid_thw=None, token_type_ids=None):
        x = self.embed(input_ids)
        if pixel_values is not None:
            image_embeds = self.visual(pixel_values, image_grid_thw)
            x = x + token_type_ids[..., None] * image_embeds.mean(axis=0)
        return self.lm_head(x)


@functools.partial(jax.jit, static_argnums=(4,))
def forward_vision(
    model: Qwen3VLForConditionalGeneration,
    cache,
    input_ids: Array,
    pixel_values: Array,
    image_grid_thw: GridTHW,
    token_type_ids: Array,
) -> Tuple[Array, object]:
    """JIT-compiled forward pass with vision inputs.

    image_grid_thw is marked static since its values control array shapes
    (linspace, reshape, arange) in the vision encoder. Different image
    resolutions will trigger recompilation (one-time cost per resolution).
    """
    logits = model(input_ids, cache, pixel_values, image_grid_thw, token_type_ids)
    return logits[:, -1, :], cache
