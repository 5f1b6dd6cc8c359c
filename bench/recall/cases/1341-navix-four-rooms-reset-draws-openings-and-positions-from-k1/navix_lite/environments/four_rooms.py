from __future__ import annotations
from typing import Union

import jax
import jax.numpy as jnp
from jax import Array

from ..grid import (
    random_positions,
    random_directions,
    room,
    horizontal_wall,
    vertical_wall,
)


class FourRooms:
    def __init__(self, height: int, width: int):
        self.height = height
        self.width = width

    def _reset(self, key: Array, cache: Union[None, None] = None):
        assert self.height > 4, f"Insufficient height for room {self.height} < 4"
        assert self.width > 4, f"Insufficient width for room {self.width} < 4"
        key, k1, k2 = jax.random.split(key, 3)

        # map
        grid = room(height=self.height, width=self.width)

        # vertical partition
        opening_1 = jax.random.randint(k1, shape=(), minval=1, maxval=self.height // 2)
        opening_2 = jax.random.randint(
            k1, shape=(), minval=self.height // 2 + 2, maxval=self.height
        )
        openings = jnp.stack([opening_1, opening_2])
        wall_pos_vert = vertical_wall(grid, self.width // 2, openings)

        # horizontal partition
        opening_1 = jax.random.randint(k2, shape=(), minval=1, maxval=self.width // 2)
        opening_2 = jax.random.randint(
            k1, shape=(), minval=self.width // 2 + 2, maxval=self.width
        )
        openings = jnp.stack([opening_1, opening_2])
        wall_pos_hor = horizontal_wall(grid, self.height // 2, openings)

        walls_pos = jnp.concatenate([wall_pos_vert, wall_pos_hor])

        # player
        player_pos, goal_pos = random_positions(k1, grid, n=2, exclude=walls_pos)
        direction = random_directions(k2, n=1)
        return {
            "key": key,
            "walls": walls_pos,
            "player": player_pos,
            "goal": goal_pos,
            "direction": direction,
        }
