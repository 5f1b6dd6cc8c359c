import jax
import jax.numpy as jnp

from navix_lite.components import DISCARD_PILE_COORDS
from navix_lite.observations import RADIUS, categorical_first_person
from navix_lite.states import Entity, State

if __name__ == "__main__":
    grid = jnp.zeros((4, 5), dtype=jnp.int32)
    player = Entity(position=jnp.array([0, 3]), tag=jnp.array([2]), transparent=jnp.array([True]))
    # the key was picked up: it sits on the discard pile, off the grid
    key = Entity(position=DISCARD_PILE_COORDS, tag=jnp.array([5]), transparent=jnp.array([True]))
    state = State(grid=grid, entities={"player": player, "key": key})
    obs = jax.jit(categorical_first_person)(state)
    print(obs)
    print(f"picked-up key drawn in the view: {bool(jnp.any(obs == 5))}")
