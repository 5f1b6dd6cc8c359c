import copy

from jax.tree_util import tree_map
import jax.numpy as jnp


def _promote_batch_shape_expanded(d, new_shapes_elems, orig_delta_batch_shape):
    new_self = copy.deepcopy(d)
    new_axes_locs = range(
        len(new_shapes_elems),
        len(new_shapes_elems) + len(orig_delta_batch_shape),
    )
    new_base_dist = tree_map(
        lambda x: jnp.expand_dims(x, axis=new_axes_locs), new_self["base_dist"]
    )
    new_self["base_dist"] = new_base_dist
    return new_self
