import functools

import jax
import jax.numpy as jnp

seg_sum = jax.jit(jax.ops.segment_sum, static_argnums=2)
seg_sum_kw = jax.jit(jax.ops.segment_sum, static_argnames="num_segments")
batched = jax.vmap(jax.ops.segment_sum, in_axes=(0, 0, None))
x = jnp.ones((2, 3))
ids = jnp.array([[0, 0, 1], [1, 1, 0]])
print(seg_sum(x[0], ids[0], 2), seg_sum_kw(x[0], ids[0], num_segments=2), batched(x, ids, 2))
