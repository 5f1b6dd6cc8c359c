import jax.numpy as jnp
from equinox import Module, field

from pymdp_lite import utils


class Agent(Module):
    """
    The Agent class, the highest-level API that wraps together processes for action, perception, and learning under active inference.

    Reduced to the decoding of flattened (combined) control factors into the original multi-factor actions.
    """

    num_controls: list = field(static=True)
    num_controls_multi: list = field(static=True)
    action_maps: list = field(static=True)
    batch_size: int = field(static=True)

    def decode_multi_actions(self, action):
        """Decode flattened actions to multiple actions"""
        if self.action_maps is None:
            return action

        action_multi = jnp.zeros((self.batch_size, len(self.num_controls_multi))).astype(action.dtype)
        for f, action_map in enumerate(self.action_maps):
            if action_map["multi_dependency"] == []:
                continue

            action_multi_f = utils.index_to_combination(action[..., f], action_map["multi_dims"])
            action_multi = action_multi.at[..., action_map["multi_dependency"]].set(action_multi_f)
        return action_multi
