from typing import Any, Dict

import jax
import jax.numpy as jnp


class Logger:
    metrics: Dict[str, Any]


class PPO:
    """A PPO agent (reduced to its update and logging)."""

    def __init__(self, num_minibatches=4, num_epochs=2, entropy_coeff_start=0.01):
        @jax.jit
        def sgd_step(state, traj_batch):
            def loss(params):
                values = traj_batch["obs"] @ params
                loss_value = jnp.mean((values - traj_batch["returns"]) ** 2)
                loss_policy = -jnp.mean(values)
                return loss_value + 0.1 * loss_policy, (loss_policy, loss_value)

            (total, (loss_policy, loss_value)), grads = jax.value_and_grad(loss, has_aux=True)(state)
            state = state - 0.01 * grads
            results = {
                "loss_total": total,
                "loss_policy": loss_policy,
                "loss_value": loss_value,
                "loss_entropy": jnp.zeros(()),
                "entropy_cost": jnp.asarray(entropy_coeff_start),
            }
            return state, results

        self._sgd_step = sgd_step
        self._num_minibatches = num_minibatches
        self._num_epochs = num_epochs

        # Set up counters and logger
        self._logger = Logger()
        self._logger.metrics = {
            "total_steps": 0,
            "sgd_steps": 0,
            "loss_total": 0,
            "loss_policy": 0,
            "loss_value": 0,
            "loss_entropy": 0,
            "entropy_cost": entropy_coeff_start,
        }

    def update(self, traj_batch, t_prime, state, mem):
        """Update the agent -> only called at the end of a trajectory"""
        state, results = self._sgd_step(state, traj_batch)
        self._logger.metrics["sgd_steps"] += (
            self._num_minibatches * self._num_epochs
        )
        self._logger.metrics["loss_total"] = results["loss_total"]
        self._logger.metrics["loss_policy"] = results["loss_policy"]
        self._logger.metrics["loss_value"] = results["loss_value"]
        self._logger.metrics["loss_entropy"] = results["loss_entropy"]
        self._logger.metrics["entropy_cost"] = results["entropy_cost"]

        return state, mem
