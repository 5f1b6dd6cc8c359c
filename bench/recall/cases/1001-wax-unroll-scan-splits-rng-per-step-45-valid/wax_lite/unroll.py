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


class ScanState(NamedTuple):
    params: Any
    fun_state: Any
    rng: jnp.ndarray


def unroll_transform_with_state(fun: Callable, skip_first: bool = False):
    """Unroll a function on the first axis of its inputs with lax.scan."""
    if not isinstance(fun, TransformedWithState):
        fun = hk.transform_with_state(fun)
    fun = cast(TransformedWithState, fun)

    def scan_f(scan_state, inputs):
        params, state, rng = scan_state
        args_step, kwargs_step = inputs
        if rng is not None:
            (rng, sub_rng) = jax.random.split(rng)
        else:
            sub_rng = None
        outputs, state = fun.apply(params, state, sub_rng, *args_step, **kwargs_step)
        return ScanState(params, state, rng), outputs

    def init(rng: jnp.ndarray, *args, **kwargs):
        xs = (args, kwargs)
        args_0, kwargs_0 = tree_map(lambda x: x[0], xs)
        params, state = fun.init(rng, *args_0, **kwargs_0)
        return params, state

    def apply_fn(params: Any, state: Any, rng: jnp.ndarray, *args, **kwargs):
        xs = (args, kwargs)

        if skip_first:
            xs = tree_map(lambda x: x[1:], xs)

        scan_state, output_sequence = jax.lax.scan(
            scan_f, init=ScanState(params, state, rng), xs=xs
        )
        _, final_state, _ = scan_state
        return output_sequence, final_state

    return UnrollTransformedWithState(init, apply_fn)
