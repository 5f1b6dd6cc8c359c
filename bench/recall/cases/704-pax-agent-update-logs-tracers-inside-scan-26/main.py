import jax
import jax.numpy as jnp

from pax_lite.independent_learners import IndependentLearners
from pax_lite.ppo import PPO
from pax_lite.runner import Runner

if __name__ == "__main__":
    agent1, agent2 = PPO(), PPO()
    agents = IndependentLearners((agent1, agent2))
    runner = Runner(num_opps=2, num_trials=3)
    trajectories = {"obs": jnp.ones((5, 2, 3)), "returns": jnp.ones((5, 2))}
    a2_state = jnp.zeros((2, 3))
    a2_mem = jnp.zeros((2, 4))
    runner.train_loop(agents, a2_state, a2_mem, trajectories)
    logged = agent2._logger.metrics["loss_total"]
    print("agent2 logged loss:", type(logged).__name__)
    print("logged a tracer:", isinstance(logged, jax.core.Tracer))
