from functools import partial

import jax
import jax.numpy as jnp


class Model:
    def __init__(self, coords, physics, time_step=30.0):
        self.coords = coords
        self.physics = physics
        self.time_step = time_step

    @partial(jax.jit, static_argnums=(0, 2, 3)) # Note: if model fields assumed to be static are changed, the changes will not be picked up here
    def run_from_state(self,
                       initial_state,
                       save_interval=10.0,
                       total_time=120.0,
    ):
        inner_steps = int(save_interval * 24 * 60 / self.time_step)
        outer_steps = int(total_time / save_interval)

        def step(temperature, _):
            tendency = sum(term.tendency(temperature) for term in self.physics.terms)
            return temperature + self.time_step / 60.0 * tendency, None

        def outer(temperature, _):
            temperature, _ = jax.lax.scan(step, temperature, None, length=inner_steps)
            return temperature, temperature

        return jax.lax.scan(outer, initial_state, None, length=outer_steps)

    def run(self, initial_state=None, save_interval=10.0, total_time=120.0):
        if initial_state is None:
            initial_state = jnp.linspace(250.0, 300.0, self.coords)
        _, temperature = self.run_from_state(initial_state, save_interval, total_time)
        return temperature
