import jax
import jax.numpy as jnp

from jcm_lite import time_integration


class Model:
    """
    Top level class for a JAX-GCM configuration (reduced: a column relaxing to its boundary temperature).
    """

    def __init__(self, time_step=30.0, relaxation_days=5.0):
        """
        Initialize the model.

        Args:
            time_step: Model time step in minutes
            relaxation_days: relaxation time scale of the temperature in days
        """
        self.dt_si = time_step * 60.0  # seconds
        self.tau = relaxation_days * 86400.0

    def _create_step_fn(self, boundaries):
        def step_fn(state):
            temperature = state["temperature"] + self.dt_si * (boundaries["t_surface"] - state["temperature"]) / self.tau
            return {"temperature": temperature, "sim_time": state["sim_time"] + self.dt_si}

        return step_fn

    def _post_process(self, state, boundaries):
        """Post-processes a single state from the simulation trajectory."""
        return {"mean_temperature": jnp.mean(state["temperature"])}

    def run_from_state(self,
                       initial_state,
                       boundaries,
                       save_interval=10.0,
                       total_time=120.0,
    ):
        """Runs the full simulation forward in time starting from given initial state.

        Args:
            initial_state:
                dict with the temperature field and the simulation time.
            boundaries:
                dict with the boundary conditions for the run.
            save_interval:
                (float) interval at which to save model outputs in days (default 10.0).
            total_time:
                (float) total time to run the model in days (default 120.0).

        Returns:
            A tuple containing (final state, trajectory of post-processed model states).
        """
        step_fn = self._create_step_fn(boundaries)

        inner_steps = int(save_interval / (self.dt_si / 86400.0))
        outer_steps = int(total_time / save_interval)
        times = initial_state["sim_time"] / 86400.0 + save_interval * jnp.arange(outer_steps)

        integrate_fn = jax.jit(time_integration.trajectory_from_step(
            jax.checkpoint(step_fn),
            outer_steps=outer_steps,
            inner_steps=inner_steps,
            start_with_input=True,
            post_process_fn=lambda state: self._post_process(state, boundaries),
        ))

        final_modal_state, predictions = integrate_fn(initial_state)
        return final_modal_state, dict(predictions, times=times)
