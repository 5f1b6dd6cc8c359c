# Copyright 2020 Verily Life Sciences LLC
#
# Use of this source code is governed by a BSD-style
# license that can be found in the LICENSE file or at
# https://developers.google.com/open-source/licenses/bsd

"""Utilities for simulating recruitment and infection of trial participants."""

# I know you mean well, pytype, but I'd like my janky JaxDataset.
# pytype: skip-file

from typing import List
from jax import nn
import jax.numpy as jnp
import numpy as np


def differentiable_cumsum_capper(x, threshold, width):
  """Starts out 1 and decays to 0 so that (result * x).cumsum() <= threshold."""
  cumsum = x.cumsum()
  capped_cumsum = threshold - width * nn.softplus((threshold - cumsum) / width)
  capped_x = jnp.concatenate([x[:1], jnp.diff(capped_cumsum)])
  # The "double where" trick is needed to ensure non-nan gradients here. See
  # https://github.com/google/jax/issues/1052#issuecomment-514083352
  nonzero_x = jnp.where(x == 0.0, 1.0, x)
  capper = jnp.where(x == 0.0, 0.0, capped_x / nonzero_x)
  return capper


def differentiable_greater_than(x, threshold, width):
  """A smoothed version of (x > threshold).astype(float)."""
  return nn.sigmoid((x - threshold) / width)

