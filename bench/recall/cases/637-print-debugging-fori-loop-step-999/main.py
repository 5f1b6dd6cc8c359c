from collections import namedtuple

import jax.numpy as jnp
from jax import lax

LoopState = namedtuple("LoopState", ["thingy", "foobar"])

episode_length = 5


def step(i, loop_state):
  print(i, loop_state)
  # do stuff...
  new_thingy = loop_state.thingy + 1.0
  new_foobar = loop_state.foobar * 0.5
  return LoopState(new_thingy, new_foobar)


init_thingy, init_foobar = jnp.zeros(3), jnp.ones(3)
init_val = LoopState(init_thingy, init_foobar)

if __name__ == "__main__":
  final = lax.fori_loop(0, episode_length, step, init_val)
  print("final:", final.thingy)
