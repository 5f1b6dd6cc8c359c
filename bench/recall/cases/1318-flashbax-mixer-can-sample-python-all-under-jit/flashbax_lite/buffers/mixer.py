import functools
from typing import Callable, Sequence, TypeVar

import jax
import jax.numpy as jnp
from chex import Numeric, dataclass
from jax.tree_util import tree_map

from flashbax_lite.buffers.trajectory_buffer import (
    TrajectoryBuffer,
    TrajectoryBufferSample,
    TrajectoryBufferState,
)

state_types = [TrajectoryBufferState]
StateTypes = TypeVar("StateTypes", bound=TrajectoryBufferState)

BufferTypes = TypeVar("BufferTypes", bound=TrajectoryBuffer)


@dataclass(frozen=True)
class Mixer:
    """Pure functions defining the mixer.

    Attributes:
        sample (Callable): function to sample proportionally from all buffers,
            concatenating along the batch axis
        can_sample (Callable): function to check if all buffers can sample
    """

    sample: Callable
    can_sample: Callable


def sample_mixer_fn(states, key, prop_batch_sizes, sample_fns):
    keys = jax.random.split(key, len(states))
    samples = [
        sample_fn(state, k)
        for state, k, sample_fn in zip(states, keys, sample_fns)
    ]
    samples = [
        jax.tree_util.tree_map(lambda x: x[:size], s)
        for s, size in zip(samples, prop_batch_sizes)
    ]
    return tree_map(lambda *x: jnp.concatenate(x, axis=0), *samples)


def can_sample_mixer_fn(
    states: Sequence[StateTypes], can_sample_fns: Sequence[Callable[[StateTypes], bool]]
) -> bool:
    """Check if all buffers can sample.

    Args:
        states (Sequence[StateTypes]): list of buffer states
        can_sample_fns (Sequence[Callable[[StateTypes], bool]]): list of can_sample functions
            from each buffer

    Returns:
        bool: whether all buffers can sample
    """
    each_can_sample = tree_map(
        lambda state, can_sample: can_sample(state),
        states,
        can_sample_fns,
        is_leaf=lambda leaf: type(leaf) in state_types,
    )
    return all(each_can_sample)


def make_mixer(
    buffers: Sequence[BufferTypes],
    sample_batch_size: int,
    proportions: Sequence[Numeric],
) -> Mixer:
    """Create the mixer."""
    assert len(buffers) == len(
        proportions
    ), "Number of buffers and proportions must match"
    assert sample_batch_size > 0, "Sample batch size must be greater than 0"

    sample_fns = [b.sample for b in buffers]
    can_sample_fns = [b.can_sample for b in buffers]

    # Normalize proportions and calculate resulting integer batch sizes
    props_sum = sum(proportions)
    props_norm = [p / props_sum for p in proportions]
    prop_batch_sizes = [int(p * sample_batch_size) for p in props_norm]
    if sum(prop_batch_sizes) != sample_batch_size:
        # In case of rounding errors, add the remainder to the first buffer's proportion
        prop_batch_sizes[0] += sample_batch_size - sum(prop_batch_sizes)

    mixer_sample_fn = functools.partial(
        sample_mixer_fn,
        prop_batch_sizes=prop_batch_sizes,
        sample_fns=sample_fns,
    )

    mixer_can_sample_fn = functools.partial(
        can_sample_mixer_fn,
        can_sample_fns=can_sample_fns,
    )

    return Mixer(
        sample=mixer_sample_fn,
        can_sample=mixer_can_sample_fn,
    )
