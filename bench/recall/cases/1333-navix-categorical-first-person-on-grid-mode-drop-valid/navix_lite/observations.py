from __future__ import annotations

import jax
import jax.numpy as jnp
from jax import Array

from .states import State

RADIUS = 3


def view_cone(transparency_map: Array, origin: Array, radius: int) -> Array:
    # reduced: every cell within `radius` (Chebyshev distance) of the origin is visible
    rows = jnp.arange(transparency_map.shape[0])[:, None]
    cols = jnp.arange(transparency_map.shape[1])[None, :]
    near = jnp.maximum(jnp.abs(rows - origin[0]), jnp.abs(cols - origin[1])) <= radius
    return jnp.asarray(near, dtype=jnp.int32)


def crop(grid: Array, origin: Array, direction: Array, radius: int) -> Array:
    # reduced: pad by the radius and cut the (2r+1)x(2r+1) window around the origin
    padded = jnp.pad(grid, radius)
    return jax.lax.dynamic_slice(padded, (origin[0], origin[1]), (2 * radius + 1, 2 * radius + 1))


def categorical_first_person(state: State) -> Array:
    """Categorical state representation, but cropped to the agent's view, and aligned \
    with the agent's direction, such that the agent always points upwards.
    
    Args:
        state (State): The current state of the game.

    Returns:
        Array: A grid of integers, where each integer represents an entity, \
        represented as an array of shape `i32[2 * RADIUS + 1, 2 * RADIUS + 1]`."""
    # get transparency map
    transparency_map = jnp.where(state.grid == 0, 1, 0)
    positions = state.get_positions()
    transparent = state.get_transparency()
    # a picked-up entity's position (DISCARD_PILE_COORDS = (0, -1)) is
    # off-grid - .at[].set()'s default mode wraps negative components
    # around (numpy semantics) rather than dropping them, silently
    # overwriting a real cell (see categorical()/symbolic() for the
    # same bug, fixed the same way). Push off-grid positions to be
    # explicitly out of bounds first, so mode="drop" discards those
    # writes instead.
    H, W = state.grid.shape
    row, col = positions[..., 0], positions[..., 1]
    on_grid = (row >= 0) & (row < H) & (col >= 0) & (col < W)
    row = jnp.where(on_grid, row, H)
    col = jnp.where(on_grid, col, W)
    transparency_map = transparency_map.at[row, col].set(transparent, mode="drop")

    # apply view mask
    player = state.get_player()
    view = view_cone(transparency_map, player.position, RADIUS)

    # get categorical representation
    tags = state.get_tags()
    obs = state.grid.at[row, col].set(tags, mode="drop") * view

    # crop grid to agent's view
    obs = crop(obs, player.position, player.direction, RADIUS)

    return obs
