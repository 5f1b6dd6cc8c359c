import chex
from flax import struct, linen as nn
from optax import linear_schedule


class DQNConfig(struct.PyTreeNode):
    # Non-static parameters
    gamma: chex.Scalar
    max_grad_norm: chex.Scalar
    learning_rate: chex.Scalar
    eps_start: chex.Scalar
    eps_end: chex.Scalar

    # Static parameters
    total_timesteps: int = struct.field(pytree_node=False)
    eval_freq: int = struct.field(pytree_node=False)
    agent: nn.Module = struct.field(pytree_node=False)
    obs_size: int = struct.field(pytree_node=False)
    exploration_fraction: chex.Scalar = struct.field(pytree_node=False)
    num_envs: int = struct.field(pytree_node=False)

    @property
    def epsilon_schedule(self):
        return linear_schedule(
            self.eps_start,
            self.eps_end,
            int(self.exploration_fraction * self.total_timesteps),
        )
