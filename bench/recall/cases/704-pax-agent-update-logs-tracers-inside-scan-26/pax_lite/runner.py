import jax
import jax.numpy as jnp


class Runner:
    def __init__(self, num_opps=2, num_trials=3):
        self.num_opps = num_opps
        self.num_trials = num_trials

    def train_loop(self, agents, a2_state, a2_mem, trajectories):
        agent1, agent2 = agents.agents

        def _outer_rollout(carry, unused):
            """Runner for trial"""
            a2_state, a2_mem = carry
            # update second agent
            a2_state, a2_mem = agent2.batch_update(
                trajectories, jnp.zeros(self.num_opps), a2_state, a2_mem
            )
            return (a2_state, a2_mem), None

        # run trials
        vals, _ = jax.lax.scan(
            _outer_rollout,
            (a2_state, a2_mem),
            None,
            length=self.num_trials,
        )
        return vals
