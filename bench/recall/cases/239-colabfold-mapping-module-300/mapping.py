import functools

import jax

partial = functools.partial
PROXY = object()


def _maybe_get_size(array, axis):
    if axis == PROXY:
        return -1
    else:
        return array.shape[axis]


def _expand_axes(axes, values, name="sharded_apply"):
    values_tree_def = jax.tree_util.tree_flatten(values)[1]
    flat_axes = [axes] * values_tree_def.num_leaves
    flat_axes = [PROXY if x is None else x for x in flat_axes]
    return jax.tree_util.tree_unflatten(values_tree_def, flat_axes)


def sharded_apply(fun, shard_size=1, in_axes=0, out_axes=0):
    def mapped_fn(*args):
        in_axes_ = _expand_axes(in_axes, args)

        in_sizes = jax.tree_multimap(_maybe_get_size, args, in_axes_)
        flat_sizes = jax.tree_flatten(in_sizes)[0]
        in_size = max(flat_sizes)
        assert shard_size <= in_size
        return fun(*args)

    return mapped_fn
