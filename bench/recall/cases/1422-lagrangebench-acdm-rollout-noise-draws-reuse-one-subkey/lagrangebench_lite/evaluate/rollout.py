"""Evaluation and inference functions for generating rollouts (the ACDM step)."""

from typing import Callable, Dict

import haiku as hk
import jax.numpy as jnp
from jax import random


def _forward_eval_acdm(
    params: hk.Params,
    state: hk.State,
    features: Dict[str, jnp.ndarray],
    particle_type: jnp.ndarray,
    current_positions: jnp.ndarray,
    model_apply: Callable,
    key,
    acdm_config,
):
    """Run one diffusion-refinement step of the model in inference mode."""
    # conditioning data only without the target
    features["prev_concatenated_data"] = features["conditioning_data"]

    key, subkey = random.split(key, 2)

    # dNoise has a shape (3200,2)
    dNoise = random.normal(subkey, jnp.zeros((features["vel_hist"].shape[0], 2)).shape)
    # cNoise has a shape (3200,4)
    cNoise = random.normal(
        subkey,
        jnp.zeros(
            (features["vel_hist"].shape[0], 2 * acdm_config.num_conditioning_steps)
        ).shape,
    )

    for k in reversed(range(0, acdm_config.diffusionSteps)):  # Refinement loop
        # compute conditioned part with normal forward diffusion
        condNoisy = (
            acdm_config.sqrtAlphasCumprod[k] * features["prev_concatenated_data"]
            + acdm_config.sqrtOneMinusAlphasCumprod[k] * cNoise
        )

        features["k"] = jnp.tile(k, (features["vel_hist"].shape[0],))
        features["noised_data"] = jnp.concatenate([condNoisy, dNoise], axis=1)

        pred, state = model_apply(params, state, (features, particle_type))

        modelMean = acdm_config.sqrtRecipAlphas[k] * (
            features["noised_data"]
            - acdm_config.betas[k]
            * pred["noise"]
            / acdm_config.sqrtOneMinusAlphasCumprod[k]
        )

        dNoise = modelMean[:, cNoise.shape[1] : modelMean.shape[1]]

        if k != 0:
            # sample randomly (only for non-final prediction),
            # use mean directly for final prediction
            dNoise = dNoise + acdm_config.sqrtPosteriorVariance[k] * random.normal(
                subkey, jnp.zeros((features["vel_hist"].shape[0], 2)).shape
            )

    refined_value = {"acc": dNoise}
    next_position = current_positions[:, -1] + refined_value["acc"]
    current_positions = jnp.concatenate(
        [current_positions[:, 1:], next_position[:, None, :]], axis=1
    )  # as next model input

    return current_positions, state
