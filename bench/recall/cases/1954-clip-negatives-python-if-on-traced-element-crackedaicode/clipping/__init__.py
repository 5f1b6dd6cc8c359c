from clipping.ops import clip_v1, clip_v2
