import enum
from functools import partial
from typing import Sequence, Union

import jax
import jax.numpy as jnp


class ResizeMethod(enum.Enum):
  NEAREST = 0
  LINEAR = 1


def _resize_nearest(x, output_shape):
  input_shape = x.shape
  for d in range(len(output_shape)):
    offsets = (jnp.arange(output_shape[d]) + 0.5) * input_shape[d] / output_shape[d]
    offsets = jnp.floor(offsets).astype(jnp.int32)
    indices = [slice(None)] * len(input_shape)
    indices[d] = offsets
    x = x[tuple(indices)]
  return x


@partial(jax.jit, static_argnums=(1, 2, 3))
def _resize(image, shape: Sequence[int], method: Union[str, ResizeMethod],
            antialias: bool):
  if len(shape) != image.ndim:
    msg = ('shape must have length equal to the number of dimensions of x; '
           f' {shape} vs {image.shape}')
    raise ValueError(msg)
  if isinstance(method, str):
    method = ResizeMethod[method.upper()]
  if method == ResizeMethod.NEAREST:
    return _resize_nearest(image, shape)
  raise NotImplementedError(method)


def resize(image, shape: Sequence[int], method: Union[str, ResizeMethod],
           antialias: bool = True):
  """Image resize.

  Returns:
    The resized image.
  """
  return _resize(image, tuple(shape), method, antialias)
