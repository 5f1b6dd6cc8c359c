from typing import Any

import jax
import jax.numpy as jnp
import numpy as np


class Policy:
    def __init__(
        self,
        model,
        *,
        rng=None,
        sample_kwargs: dict[str, Any] | None = None,
    ):
        self._sample_actions = jax.jit(model.sample_actions)
        self._rng = rng or jax.random.key(0)
        self._sample_kwargs = sample_kwargs or {}

    def infer(self, obs: dict) -> dict:
        # Make a batch and convert to jax.Array.
        inputs = jax.tree.map(lambda x: jnp.asarray(x)[np.newaxis, ...], obs)

        self._rng, sample_rng = jax.random.split(self._rng)
        outputs = {
            "state": inputs["state"],
            "actions": self._sample_actions(sample_rng, inputs, **self._sample_kwargs),
        }
        # Unbatch and convert to np.ndarray.
        outputs = jax.tree.map(lambda x: np.asarray(x[0, ...]), outputs)
        return outputs
