"""Color conversion functions (RGB to HSV only)."""

from typing import Tuple

import chex
import jax.numpy as jnp


def split_channels(
    image: chex.Array,
    channel_axis: int,
) -> Tuple[chex.Array, chex.Array, chex.Array]:
  chex.assert_axis_dimension(image, axis=channel_axis, expected=3)
  split_axes = jnp.split(image, 3, axis=channel_axis)
  return tuple(map(lambda x: jnp.squeeze(x, axis=channel_axis), split_axes))


def rgb_to_hsv(
    image_rgb: chex.Array,
    *,
    channel_axis: int = -1,
) -> chex.Array:
  """Converts an image from RGB to HSV."""
  red, green, blue = split_channels(image_rgb, channel_axis)
  return jnp.stack(
      rgb_planes_to_hsv_planes(red, green, blue), axis=channel_axis)


def rgb_planes_to_hsv_planes(
    red: chex.Array,
    green: chex.Array,
    blue: chex.Array,
) -> Tuple[chex.Array, chex.Array, chex.Array]:
  """Converts red, green, blue color planes to hue, saturation, value planes."""
  value = jnp.maximum(jnp.maximum(red, green), blue)
  minimum = jnp.minimum(jnp.minimum(red, green), blue)
  range_ = value - minimum

  saturation = jnp.where(value > 0, range_ / value, 0.)
  norm = 1. / (6. * range_)

  hue = jnp.where(value == green,
                  norm * (blue - red) + 2. / 6.,
                  norm * (red - green) + 4. / 6.)
  hue = jnp.where(value == red, norm * (green - blue), hue)
  hue = jnp.where(range_ > 0, hue, 0.) + (hue < 0.)

  return hue, saturation, value
