"""Unroll modules on data along first axis."""
from typing import Any, Callable, NamedTuple, cast

import haiku as hk
import jax
import jax.numpy as jnp
from haiku import TransformedWithState
from jax.tree_util import tree_map


class UnrollTransformedWithState(NamedTuple):
    init: Callable
    apply: Callable


def unroll_transform_with_state(fun: Callable, skip_first: bool = False):
    """Unroll a function on the first axis of its inputs with lax.scan."""
    if not isinstance(fun, TransformedWithState):
        fun = hk.transform_with_state(fun)
    fun = cast(TransformedWithState, fun)

    def init(rng: jnp.ndarray, *args, **kwargs):
        xs = (args, kwargs)
        args_0, kwargs_0 = tree_map(lambda x: x[0], xs)
        params, state = fun.init(rng, *args_0, **kwargs_0)
        return params, state

    def dynamic_apply_fn(params: Any, state: Any, rng: jnp.ndarray, *args, **kwargs):
        xs = (args, kwargs)

        if skip_first:
            xs = tree_map(lambda x: x[1:], xs)

        def scan_f(prev_state, inputs):
            args_step, kwargs_step = inputs
            outputs, next_state = fun.apply(
                params, prev_state, rng, *args_step, **kwargs_step
            )
            return next_state, outputs

        final_state, output_sequence = jax.lax.scan(scan_f, init=state, xs=xs)
        return output_sequence, final_state

    return UnrollTransformedWithState(init, dynamic_apply_fn)
