import jax.numpy as jnp
from jax import jit, random
from jax.example_libraries import stax


class Agent:
    def __init__(self, key):
        net_init, self.net_apply = stax.serial(stax.Dense(16), stax.Relu, stax.Dense(4))
        _, self.params = net_init(key, (-1, 8))

    def take_action(self, obs):
        @jit
        def _take_action(params, obs):
            logits = self.net_apply(params, obs)
            softm_logits = stax.softmax(logits.flatten())
            sorted_logits = jnp.sort(softm_logits)
            conf = sorted_logits[-1] - sorted_logits[-2]
            action = jnp.argmax(logits)
            return logits, action, conf

        return _take_action(self.params, obs)


if __name__ == "__main__":
    agent = Agent(random.PRNGKey(0))
    obs = jnp.ones((1, 8))
    for _ in range(5):
        agent.take_action(obs)
    print("5 calls done")
