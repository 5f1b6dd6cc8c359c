import jax
import jax.numpy as jnp

from navix_lite.environments import Environment, StepType, Timestep
from navix_lite.environments.environment import State


class Corridor(Environment):
    """A 1 x width corridor: action 1 moves right, the episode ends at the last cell."""

    def reset(self, key, cache=None):
        state = State(key=key, position=jnp.asarray(0))
        return Timestep(
            t=jnp.asarray(0), observation=state.position, action=jnp.asarray(-1),
            reward=jnp.asarray(0.0), step_type=StepType.TRANSITION, state=state,
        )

    def _step(self, timestep, action):
        position = jnp.minimum(timestep.state.position + action, self.width - 1)
        done = position == self.width - 1
        state = timestep.state.replace(position=position)
        return Timestep(
            t=timestep.t + 1, observation=position, action=action,
            reward=done.astype(jnp.float32),
            step_type=jnp.where(done, StepType.TERMINATION, StepType.TRANSITION),
            state=state,
        )


if __name__ == "__main__":
    env = Corridor(height=1, width=4, max_steps=16)
    timestep = env.reset(jax.random.PRNGKey(0))
    step = jax.jit(env.step)
    try:
        for _ in range(5):
            timestep = step(timestep, jnp.asarray(1))
        print(f"stepped: position {int(timestep.state.position)}")
    except jax.errors.TracerBoolConversionError as e:
        print(f"TracerBoolConversionError: {str(e).splitlines()[0][:70]}")
