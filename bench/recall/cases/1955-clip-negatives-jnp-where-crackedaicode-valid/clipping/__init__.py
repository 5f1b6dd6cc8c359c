from clipping.ops import clip_v3
