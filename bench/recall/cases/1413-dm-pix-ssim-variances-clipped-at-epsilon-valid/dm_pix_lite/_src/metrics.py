"""Functions to compare image pairs (ssim only)."""

import chex
import jax
import jax.numpy as jnp


def ssim(
    a: chex.Array,
    b: chex.Array,
    *,
    max_val: float = 1.0,
    filter_size: int = 11,
    filter_sigma: float = 1.5,
    k1: float = 0.01,
    k2: float = 0.03,
    return_map: bool = False,
    precision=jax.lax.Precision.HIGHEST,
) -> chex.Numeric:
  chex.assert_rank([a, b], {3, 4})
  chex.assert_type([a, b], float)
  chex.assert_equal_shape([a, b])

  # Construct a 1D Gaussian blur filter.
  hw = filter_size // 2
  shift = (2 * hw - filter_size + 1) / 2
  f_i = ((jnp.arange(filter_size) - hw + shift) / filter_sigma)**2
  filt = jnp.exp(-0.5 * f_i)
  filt /= jnp.sum(filt)

  # Construct a 1D convolution.
  filt_fn_1 = lambda z: jnp.convolve(z, filt, mode="valid", precision=precision)
  filt_fn_vmap = jax.vmap(filt_fn_1)

  # Apply the vectorized filter along the y axis.
  def filt_fn_y(z):
    z_flat = jnp.moveaxis(z, -3, -1).reshape((-1, z.shape[-3]))
    z_filt_shape = ((z.shape[-4],) if z.ndim == 4 else
                    ()) + (z.shape[-2], z.shape[-1], -1)
    return jnp.moveaxis(filt_fn_vmap(z_flat).reshape(z_filt_shape), -1, -3)

  # Apply the vectorized filter along the x axis.
  def filt_fn_x(z):
    z_flat = jnp.moveaxis(z, -2, -1).reshape((-1, z.shape[-2]))
    z_filt_shape = ((z.shape[-4],) if z.ndim == 4 else
                    ()) + (z.shape[-3], z.shape[-1], -1)
    return jnp.moveaxis(filt_fn_vmap(z_flat).reshape(z_filt_shape), -1, -2)

  # Apply the blur in both x and y.
  filt_fn = lambda z: filt_fn_y(filt_fn_x(z))

  mu0 = filt_fn(a)
  mu1 = filt_fn(b)
  mu00 = mu0 * mu0
  mu11 = mu1 * mu1
  mu01 = mu0 * mu1
  sigma00 = filt_fn(a**2) - mu00
  sigma11 = filt_fn(b**2) - mu11
  sigma01 = filt_fn(a * b) - mu01

  # Clip the variances and covariances to valid values.
  # Variance must be non-negative:
  epsilon = jnp.finfo(jnp.float32).eps**2
  sigma00 = jnp.maximum(epsilon, sigma00)
  sigma11 = jnp.maximum(epsilon, sigma11)
  sigma01 = jnp.sign(sigma01) * jnp.minimum(
      jnp.sqrt(sigma00 * sigma11), jnp.abs(sigma01))

  c1 = (k1 * max_val)**2
  c2 = (k2 * max_val)**2
  numer = (2 * mu01 + c1) * (2 * sigma01 + c2)
  denom = (mu00 + mu11 + c1) * (sigma00 + sigma11 + c2)
  ssim_map = numer / denom
  ssim_value = jnp.mean(ssim_map, list(range(-3, 0)))
  return ssim_map if return_map else ssim_value
