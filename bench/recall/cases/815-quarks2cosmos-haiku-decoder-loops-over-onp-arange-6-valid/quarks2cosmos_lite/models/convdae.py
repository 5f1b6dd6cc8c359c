from typing import Optional

import haiku as hk
import jax


class BlockGroup(hk.Module):
  """Higher level block for ResNet implementation (blocks reduced to one transposed conv each)."""

  def __init__(
      self,
      channels: int,
      num_blocks: int,
      stride: int,
      use_projection: bool,
      transpose: bool,
      name: Optional[str] = None,
  ):
    super().__init__(name=name)

    self.blocks = []
    for i in range(num_blocks):
      self.blocks.append(
          hk.Conv2DTranspose(output_channels=channels,
                             kernel_shape=3,
                             stride=(1 if i else stride),
                             name="block_%d" % (i)))

  def __call__(self, inputs, is_training, test_local_stats):
    out = inputs
    for block in self.blocks:
      out = jax.nn.relu(block(out))
    return out
