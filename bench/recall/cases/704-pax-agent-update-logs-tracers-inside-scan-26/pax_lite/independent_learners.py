import jax


class IndependentLearners:
    """Interface for a set of batched agents to work with environment"""

    def __init__(self, agents):
        self.agents = agents
        agent1, agent2 = agents
        agent2.batch_update = jax.jit(jax.vmap(agent2.update, (1, 0, 0, 0), 0))

    def log(self, watchers):
        for agent, watch in zip(self.agents, watchers):
            watch(agent)
