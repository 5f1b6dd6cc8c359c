"""Defines a standard task interface for training a policy (the PPO loss)."""

import os
from dataclasses import dataclass
from functools import partial

import jax
import jax.numpy as jnp


@dataclass(frozen=True)
class PPOConfig:
    clip_param: float = 0.2
    value_loss_coef: float = 0.5
    entropy_coef: float = 0.008


@dataclass(frozen=True)
class PPOTask:
    config: PPOConfig

    @partial(jax.jit, static_argnames=["self", "model"])
    def compute_loss(self, model, params, obs, action, initial_action_log_probs, advantages, returns):
        """Compute the PPO loss (required by XAX)."""
        # get the log probs of the current model
        prediction, values = model.apply(params, obs)
        log_probs = jnp.take_along_axis(jax.nn.log_softmax(prediction), action[..., None], axis=-1)[..., 0]

        log_prob_diff = log_probs - initial_action_log_probs
        ratio = jnp.exp(log_prob_diff)

        # policy loss with clipping
        policy_objective = jnp.mean(
            jnp.minimum(
                ratio * advantages,
                jnp.clip(ratio, 1 - self.config.clip_param, 1 + self.config.clip_param) * advantages,
            )
        )

        # value loss term
        value_objective = 0.5 * jnp.mean((returns - values.squeeze(axis=-1)) ** 2)

        # entropy bonus term
        probs = jax.nn.softmax(prediction)  # TODO: make this live in the model
        entropy = -jnp.mean(jnp.sum(jax.scipy.special.entr(probs), axis=-1))

        total_objective = (
            policy_objective
            - self.config.value_loss_coef * value_objective
            + self.config.entropy_coef * entropy
        )
        total_loss = -total_objective

        metrics_to_log = {
            "policy_objective": policy_objective,
            "value_objective": value_objective,
            "average_ratio": jnp.mean(ratio),
        }

        use_debug = os.environ.get("DEBUG", "0") == "1"
        # if use_debug:  # should skip compilation
        #     breakpoint()

        jax.debug.print("total_loss: {total_loss}", total_loss=total_loss)

        return total_loss, metrics_to_log
