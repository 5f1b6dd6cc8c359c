from typing import Any, Callable, Sequence, Tuple, Union

import flax.linen as nn
import jax
import jax.numpy as jnp
import numpy as np

default_kernel_init = nn.initializers.lecun_normal()


def _normalize_axes(axes: Tuple[int, ...], ndim: int) -> Tuple[int, ...]:
  # A tuple by convention. len(axes_tuple) then also gives the rank efficiently.
  return tuple(sorted(ax if ax >= 0 else ndim + ax for ax in axes))


class DenseGeneral(nn.Module):
  """A linear transformation with flexible axes."""
  features: Union[int, Sequence[int]]
  axis: Union[int, Sequence[int]] = -1
  batch_dims: Sequence[int] = ()
  kernel_init: Callable[..., Any] = default_kernel_init

  @nn.compact
  def __call__(self, inputs):
    features = tuple(self.features) if isinstance(self.features, Sequence) else (self.features,)
    axis = tuple(self.axis) if isinstance(self.axis, Sequence) else (self.axis,)
    batch_dims = tuple(self.batch_dims)
    ndim = inputs.ndim
    n_batch_dims = len(batch_dims)
    axis = _normalize_axes(axis, ndim)
    batch_dims = _normalize_axes(batch_dims, ndim)
    n_axis, n_features = len(axis), len(features)

    def kernel_init_wrap(rng, shape, dtype=jnp.float32):
      size_batch_dims = np.prod(shape[:n_batch_dims], dtype=np.int32)
      flat_shape = (np.prod(shape[n_batch_dims:n_axis + n_batch_dims]),
                    np.prod(shape[-n_features:]),)
      rngs = jax.random.split(rng, size_batch_dims)
      kernel = jnp.concatenate([self.kernel_init(r, flat_shape, dtype)
                                for r in rngs], axis=0)
      return jnp.reshape(kernel, shape)

    batch_shape = tuple(inputs.shape[ax] for ax in batch_dims)
    kernel_shape = tuple(inputs.shape[ax] for ax in axis) + features
    kernel = self.param('kernel', kernel_init_wrap, batch_shape + kernel_shape)
    batch_ind = tuple(range(n_batch_dims))
    contract_ind = tuple(range(n_batch_dims, n_axis + n_batch_dims))
    return jax.lax.dot_general(inputs, kernel, ((axis, contract_ind), (batch_dims, batch_ind)))


if __name__ == "__main__":
  x = jnp.ones((3, 4, 5))
  layer = DenseGeneral(features=2, axis=-1, batch_dims=(0,))
  params = layer.init(jax.random.PRNGKey(0), x)
  k = params["params"]["kernel"]
  print("batch kernels identical:", bool(jnp.allclose(k[0], k[1])))
