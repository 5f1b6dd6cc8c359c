"""Attention Layers optimized for efficiency (init of the LSH layer only)."""
import jax
import numpy as np

from trax_lite import fastmath
from trax_lite.layers import base


def glorot_uniform(shape, rng):
  limit = np.sqrt(6.0 / (shape[0] + shape[1]))
  return jax.random.uniform(rng, shape, minval=-limit, maxval=limit)


class EfficientAttentionBase(base.Layer):
  """Base class for efficient attention."""

  def __init__(self, n_heads, n_in=1, n_parallel_heads=None,
               incremental=False, predict_mem_len=None, predict_drop_len=None,
               use_python_loop=False, use_reference_code=False):
    super().__init__(n_in=n_in, n_out=1)
    self.n_heads = n_heads
    self.incremental = incremental

  def init_weights_and_state(self, input_signature):
    if not isinstance(input_signature, (tuple, list)):
      input_signature = (input_signature,)
    input_signature_unbatched = fastmath.nested_map(
        lambda x: type(x)(shape=x.shape[1:], dtype=x.dtype),
        input_signature)
    batch_size = int(input_signature[0].shape[0])

    weights = []
    weight_rngs = fastmath.random.split(self.rng, self.n_heads)
    for i in range(self.n_heads):
      weights.append(self.create_weights_unbatched(input_signature_unbatched,
                                                   weight_rngs[i]))
    state = []
    state_rngs = fastmath.random.split(self.rng, self.n_heads * batch_size)
    for i in range(self.n_heads * batch_size):
      state.append(self.create_state_unbatched(input_signature_unbatched,
                                               state_rngs[i]))

    stack_along_axis_0 = lambda *x: np.stack(x, axis=0)
    weights = fastmath.nested_map_multiarg(stack_along_axis_0, *weights)
    state = fastmath.nested_map_multiarg(stack_along_axis_0, *state)

    self.state = tuple(state)
    self.weights = tuple(weights)

  def create_weights_unbatched(self, input_signature, rng):
    raise NotImplementedError(
        'Subclasses should override create_weights_unbatched')

  def create_state_unbatched(self, input_signature, rng):
    return ()


class LSHSelfAttention(EfficientAttentionBase):
  """LSH self-attention (see https://arxiv.org/abs/2001.04451)."""

  def __init__(self, n_heads=2, d_qk=64, d_v=64, share_qk='unused',
               causal=False, n_hashes=1, max_length_for_buckets=None,
               kernel_initializer=glorot_uniform, bias=False):
    super().__init__(n_heads=n_heads)
    self.d_qk = d_qk
    self.d_v = d_v
    self.share_qk = False
    self.n_hashes = n_hashes
    self._max_length_for_buckets = max_length_for_buckets
    self._kernel_initializer = kernel_initializer
    self.bias = bias

  def create_weights_unbatched(self, input_signature, rng):
    if isinstance(input_signature, (tuple, list)):
      input_signature = input_signature[0]
    d_model = input_signature.shape[-1]
    rng_q, rng_k, rng_v, rng_o = fastmath.random.split(rng, 4)
    w_q = self._kernel_initializer((d_model, self.d_qk), rng_q)
    if not self.share_qk:
      w_k = self._kernel_initializer((d_model, self.d_qk), rng_k)
    w_v = self._kernel_initializer((d_model, self.d_v), rng_v)
    w_o = np.transpose(self._kernel_initializer((d_model, self.d_v), rng_o))

    if self.share_qk:
      return (w_q, w_v, w_o)
    else:
      return (w_q, w_k, w_v, w_o)

  def create_state_unbatched(self, input_signature, rng):
    if isinstance(input_signature, (tuple, list)):
      input_signature = input_signature[0]
    # To be on the safe side we include a per-head RNG in the state for the
    # purpose of doing LSH.
    length = self._max_length_for_buckets or input_signature.shape[0]
    buckets = np.zeros(self.n_hashes * length, dtype=np.int32)
    return (buckets, jax.random.key_data(rng))
