import flax.linen as nn
import jax
import jax.numpy as jnp
import numpy as np

from skrl_lite.models.jax import Model, MultiCategoricalMixin


class MultiDiscrete:
    def __init__(self, nvec):
        self.nvec = np.asarray(nvec)


class Net(nn.Module):
    num_actions: int

    @nn.compact
    def __call__(self, states):
        x = nn.elu(nn.Dense(32)(states))
        return nn.Dense(self.num_actions)(x)


class Policy(MultiCategoricalMixin, Model):
    def __init__(self, observation_space, action_space, device=None, unnormalized_log_prob=True, reduction="sum", **kwargs):
        Model.__init__(self, observation_space, action_space, device, **kwargs)
        MultiCategoricalMixin.__init__(self, unnormalized_log_prob, reduction)
        self.net = Net(self.num_actions)

    def apply(self, params, inputs, role):
        return self.net.apply(params, inputs["states"]), {}


if __name__ == "__main__":
    policy = Policy(observation_space=None, action_space=MultiDiscrete([3, 2]))
    states = jnp.ones((8, 4))
    policy.init_state_dict(policy.net.init(jax.random.PRNGKey(1), states))

    # the PPO update: the log-probability of the taken actions, under jit
    @jax.jit
    def policy_loss(params, states, taken_actions):
        _, log_prob, _ = policy.act({"states": states, "taken_actions": taken_actions}, role="policy", params=params)
        return -log_prob.mean()

    taken = jnp.zeros((8, 2))
    try:
        grads = jax.grad(policy_loss)(policy.state_dict.params, states, taken)
        print("loss:", policy_loss(policy.state_dict.params, states, taken))
    except Exception as e:
        print(f"{type(e).__name__}: {str(e).splitlines()[0][:90]}")
