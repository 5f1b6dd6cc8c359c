from typing import Mapping, Tuple

import haiku as hk
import jax
import jax.numpy as jnp
import numpy as np
import optax

from perceiver_ar_lite.model import model

Scalars = Mapping[str, jnp.ndarray]


class Experiment:
  """Perceiver AR training experiment (reduced)."""

  def __init__(self, learning_rate=1e-3):
    self._lr_schedule = optax.constant_schedule(learning_rate)
    self._optimizer = optax.adam(self._lr_schedule)

  def _loss_fn(self, params, state, inputs, rng):
    logits, state = model.apply(params, state, rng, inputs['events'][:, :-1])
    targets = inputs['events'][:, 1:]
    loss = optax.softmax_cross_entropy_with_integer_labels(logits, targets)
    loss_scalars = {
        'total_loss': jnp.mean(loss),
        'num_next_events': jnp.asarray(targets.size, jnp.float32),
    }
    return loss_scalars['total_loss'], (loss_scalars, state)

  def _update_func(
      self,
      params: hk.Params,
      state: hk.State,
      opt_state,
      inputs,
      rng: jnp.ndarray,
      global_step: int,
  ) -> Tuple[hk.Params, hk.State, optax.OptState, Scalars]:
    """Applies an update to parameters and returns new state."""
    num_microbatches = inputs['events'].shape[0]

    grad_loss_fn = jax.grad(self._loss_fn, has_aux=True)

    grad_rng = jax.random.split(rng, num_microbatches)

    def _microbatch_step(loop_cnt, loop_state):
      grads_accum, loss_scalars_accum, state = loop_state
      microbatch_input = jax.tree_map(lambda x: x[loop_cnt], inputs)
      grads, (loss_scalars, state) = grad_loss_fn(params, state,
                                                  microbatch_input,
                                                  grad_rng[loop_cnt])
      grads_accum = jax.tree_multimap(jnp.add, grads_accum, grads)
      loss_scalars_accum = jax.tree_multimap(jnp.add, loss_scalars_accum,
                                             loss_scalars)
      return grads_accum, loss_scalars_accum, state

    grads_accum_init = jax.tree_map(lambda x: jnp.zeros(x.shape, x.dtype),
                                    params)
    loss_scalars_accum_init = {
        'total_loss': 0.0,
        'num_next_events': 0.0,
    }

    loop_state_init = (grads_accum_init, loss_scalars_accum_init, state)

    grads_accum, loss_scalars_accum, state = jax.lax.fori_loop(
        0, num_microbatches, _microbatch_step, loop_state_init)

    grads_accum = jax.lax.psum(grads_accum, axis_name='i')
    loss_scalars_accum = jax.lax.psum(loss_scalars_accum, axis_name='i')

    # Compute and apply updates via our optimizer.
    updates, opt_state = self._optimizer.update(grads_accum, opt_state, params)
    params = optax.apply_updates(params, updates)

    scalars = dict(loss_scalars_accum)
    scalars['learning_rate'] = self._lr_schedule(global_step)
    return params, state, opt_state, scalars
