"""jaxline training loop (reduced to the experiment and rng set-up)."""
import inspect
import logging

import jax

from jaxline_lite import utils


def _initialize_experiment(experiment_class, mode, rng, experiment_kwargs):
  """Initializes experiment catching old style init methods."""
  init_args = inspect.signature(experiment_class).parameters
  if "init_rng" in init_args:
    experiment = experiment_class(
        mode, init_rng=rng, **experiment_kwargs)
  else:
    logging.warning("You should add init_rng to your Experiment constructor.")
    experiment = experiment_class(mode, **experiment_kwargs)
  return experiment


def train(
    experiment_class,
    config,
    checkpointer: utils.Checkpointer,
    writer=None,
    periodic_actions=(),
):
  """Main training loop."""
  rng = jax.random.key(config.random_seed)

  train_step_rng, init_rng = jax.random.split(rng)

  with utils.log_activity("experiment init"):
    experiment = _initialize_experiment(
        experiment_class, "train", init_rng, config.experiment_kwargs)

  state = checkpointer.get_experiment_state("latest")
  state.global_step = 0
  state.experiment_module = experiment
  state.train_step_rng = experiment.initialize_train_step_rng(train_step_rng)

  return experiment.train_loop(config, state, periodic_actions, writer)
