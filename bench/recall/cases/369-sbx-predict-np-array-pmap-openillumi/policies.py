import jax.numpy as jnp
import numpy as np


class BaseJaxPolicy:
    def __init__(self, action_shape, low, high):
        self.action_shape = action_shape
        self.low = low
        self.high = high
        self.w = jnp.ones((3, action_shape[0]))

    def _predict(self, observation, deterministic=False):
        return jnp.tanh(observation @ self.w)

    def predict(self, observation, deterministic=False):
        actions = self._predict(observation, deterministic=deterministic)

        # Convert to numpy, and reshape to the original action shape
        actions = np.array(actions).reshape((-1, *self.action_shape))

        # Actions could be on arbitrary scale, so clip the actions to avoid
        # out of bound error (e.g. if sampling from a Gaussian distribution)
        actions = np.clip(actions, self.low, self.high)
        return actions
