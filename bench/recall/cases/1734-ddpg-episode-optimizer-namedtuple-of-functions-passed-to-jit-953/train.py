import jax
import jax.numpy as jnp
from jax import jit

from ddpg_lite.ddpg import LoopState, ddpg_episode
from ddpg_lite.optim import make_optimizer

if __name__ == "__main__":
  optimizer = make_optimizer()
  loop_state = LoopState(0, optimizer.init({"w": jnp.ones((3, 1))}))
  obs = jnp.ones((5, 3))
  try:
    loop_state = jit(ddpg_episode)(
        optimizer,
        loop_state,
        obs,
    )
    print("step:", loop_state.step)
  except TypeError as e:
    print("TypeError:", e)
