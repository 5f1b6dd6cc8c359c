import haiku as hk
import jax.numpy as jnp
from quarks2cosmos_lite.models.convdae import BlockGroup


class Decoder(hk.Module):
  """Decoder of the VAE (batch norm and the output distribution left out)."""

  def __init__(self,
               channels_per_group=(16, 16, 16, 16, 16),
               blocks_per_group=(1, 1, 1, 1, 1),
               use_projection=(True, True, True, True, True),
               bottleneck=False,
               name=None):
    super().__init__(name=name)
    self.channels_per_group = channels_per_group
    self.blocks_per_group = blocks_per_group
    self.use_projection = use_projection
    self.bottleneck = bottleneck

  def __call__(self, inputs, is_training=False, test_local_stats=False):

    # Expand and reshape inputs
    net = hk.Linear(3*3*32)(inputs)
    net = net.reshape([-1,3,3,32])

    strides = (1, 2, 2, 2, 2)
    for i in jnp.arange(5)[::-1]:
      net = BlockGroup(channels=self.channels_per_group[i],
                     num_blocks=self.blocks_per_group[i],
                     stride=strides[i],
                     use_projection=self.use_projection[i],
                     transpose=True,
                     name="up_block_group_%d" % (i))(net, is_training, test_local_stats)

    net = hk.Conv2DTranspose(output_channels=1,
                                kernel_shape=5,
                                stride=2,
                                padding="SAME",
                                name="final_conv")(net)

    # Adding padding to recover 101x101 shape
    net = net[...,0]
    net = jnp.pad(net,[[0,0],[3,2],[3,2]])
    return net
