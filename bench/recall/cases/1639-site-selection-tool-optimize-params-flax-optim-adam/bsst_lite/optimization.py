"""Optimization of vaccine trials."""

from absl import logging
from flax import optim
from jax import nn
import jax
import jax.numpy as jnp
import numpy as np


def optimize_params(initial_params,
                    loss,
                    optimization_params=None,
                    verbose=True):
  """Picks params to minimize a loss function (the trial dataset, parameterizer
  and simulation removed: the loss is given directly).
  """
  if optimization_params is None:
    optimization_params = dict()
  min_steps = optimization_params.get('min_steps', 40)
  max_steps = optimization_params.get('max_steps', 200)
  epsilon = optimization_params.get('epsilon', 1e-3)
  smoothing_window = optimization_params.get('smoothing_window', 20)
  learning_rate = optimization_params.get('learning_rate', 0.1)
  optimizer = optimization_params.get('optimizer', optim.Adam(learning_rate))
  optimizer = optimizer.create(jnp.array(initial_params))

  loss_curve = []
  while True:
    loss_value, grad = jax.value_and_grad(loss)(optimizer.target)
    loss_curve.append(float(loss_value))
    optimizer = optimizer.apply_gradient(grad)
    step = len(loss_curve)
    if (step > min_steps and
        (loss_curve[-smoothing_window] - loss_curve[-1]) < epsilon):
      # Not much progress recently. Call it a day.
      break
    if step >= max_steps:
      print('Hit max step limit. You can control this exit condition by '
            'setting max_steps in optimized_params.')
      break
    if verbose and (step % 10 == 0):
      print(f'step {step}, loss value {loss_curve[-1]}')

  return np.array(optimizer.target)
