import jax
import jax.numpy as jnp

from ksim_lite.observation import DelayedObservation
from ksim_lite.task.rl import RLTask


class WalkingRnnTask(RLTask):
    def get_initial_model_carry(self, rng):
        return jax.random.normal(rng, (8,))


if __name__ == "__main__":
    jax.config.update("jax_debug_key_reuse", True)
    task = WalkingRnnTask([DelayedObservation()])
    obs_carry = {"DelayedObservation": jnp.array(0)}
    try:
        task._get_step_env_state(jnp.array(True), jnp.zeros(3), obs_carry, jnp.zeros(8), jax.random.key(0))
        print("KeyReuseError: False")
    except jax.errors.KeyReuseError as e:
        print("KeyReuseError:", str(e).splitlines()[0])
