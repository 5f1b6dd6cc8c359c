"""Defines different learning_rate schedules."""

import jax.numpy as jnp


def polynomial_lr_scheduler(step, decay_steps, end_factor, power):
  """Same behavior as tf.train.polynomial_decay.

  Args:
    step: int; Current step.
    decay_steps: int; Parameter of the decay function.
    end_factor: float; Final lr is: initial lr x end_factor.
    power: int; Parameter of the decay function.

  Returns:
    Scaling factor applied to the learning rate on the given step.
  """

  step = min(decay_steps, step)
  decayed_learning_rate = (1 - end_factor) * (1 - step / decay_steps)**(
      power) + end_factor
  return decayed_learning_rate


def linear_warmup_scheduler(step, warmup_steps, alpha=0.):
  """Gives a scaling factor based on scheduling with a Linear Warmup."""
  if warmup_steps > 0:
    return jnp.minimum(1.0, alpha + step * (1.0 - alpha) / warmup_steps)
  else:
    return 1.0


def compound_lr_scheduler(config):
  """Creates a learning rate scheduler by comnining multiple factors."""
  ratio_factors = [n.strip() for n in config['factors'].split('*')]

  def lr_fn(step):
    """Step to learning rate function."""
    ratio = 1.0
    for name in ratio_factors:
      if name == 'constant':
        ratio *= config['base_learning_rate']
      elif name == 'polynomial':
        decay_steps = config['decay_steps']
        end_factor = config['end_factor']
        power = config['power']
        ratio *= polynomial_lr_scheduler(step, decay_steps, end_factor, power)
      elif name == 'linear_warmup':
        warmup_steps = config['warmup_steps']
        warmup_alpha = config.get('warmup_alpha', 0)
        ratio *= linear_warmup_scheduler(step, warmup_steps, warmup_alpha)
      else:
        raise ValueError('Unknown factor %s.' % name)
    return jnp.asarray(ratio, dtype=jnp.float32)
  return lr_fn


lr_fn_dict = {
    'compound': compound_lr_scheduler,
}


def get_learning_rate_fn(config):
  """Looks up for the learning rate scheduler and return lr_fn."""
  return lr_fn_dict[config.lr_configs['learning_rate_schedule']](
      config.lr_configs)
