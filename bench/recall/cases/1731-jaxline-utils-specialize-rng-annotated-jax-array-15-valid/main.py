import jax
import jax.numpy as jnp

from jaxline_lite import experiment


class Experiment(experiment.AbstractExperiment):

  def __init__(self, mode, init_rng=None):
    super().__init__(mode=mode, init_rng=init_rng)
    self.init_rng = init_rng

  def step(self, *, global_step, rng):
    return {"noise": jax.random.normal(rng[0], ())}


if __name__ == "__main__":
  exp = Experiment("train", init_rng=jax.random.PRNGKey(0))
  rng = exp.train_rng(exp.init_rng)
  print("scalars:", exp.step(global_step=jnp.zeros(()), rng=rng))
