from __future__ import annotations

import jax
import jax.numpy as jnp
from jax import Array

from .components import DISCARD_PILE_IDX
from .states import State
from .grid import idx_from_coordinates


def categorical(state: State) -> Array:
    """Fully observable grid with a categorical state representation.
    Each entity is represented by its unique integer tag.
    
    Args:
        state (State): The current state of the game.
    
    Returns:
        Array: A grid of integers, where each integer represents an entity, \
        represented as an array of shape `i32[H, W]`, where `H` and `W` are the height \
        and width of the grid."""
    # get idx of entity on the set of patches
    indices = idx_from_coordinates(state.grid, state.get_positions())
    # get tags corresponding to the entities
    tags = state.get_tags()
    # set tags on the flat set of patches. Append a discard-pile sink
    # cell first: a picked-up entity's position (DISCARD_PILE_COORDS)
    # maps to flat index -1, which .at[].set() wraps around to the
    # *last* element rather than dropping - same pattern as rgb()'s
    # cache.patches, so that wraparound lands on this dedicated extra
    # cell instead of a real grid cell.
    shape = state.grid.shape
    grid = jnp.append(state.grid.reshape(-1), 0).at[indices].set(tags)
    grid = grid[:DISCARD_PILE_IDX]  # drop the sink cell
    # unflatten patches to reconstruct the grid
    return grid.reshape(shape)
