import functools

import jax
import jax.numpy as jnp


@jax.jit
def grid_sample(img, coords):
  return jax.experimental.maps.xmap(
      functools.partial(
          jax.scipy.ndimage.map_coordinates,
          order=1,
      ),
      in_axes=[['b', ...], ['b', ...]],
      out_axes=['b', ...],
  )(img, coords)


if __name__ == "__main__":
  out = grid_sample(
      jnp.zeros((2, 5, 5)),
      jnp.zeros((2, 2, 2)),
  )
  print(out.shape)
