from typing import Any

import flax.linen as nn
import jax

from stylegan2.layers import LinearLayer


class Generator(nn.Module):
    dtype: str = 'float32'
    rng: Any = None

    @nn.compact
    def __call__(self, z, train=True):
        rng = self.rng if self.rng is not None else jax.random.PRNGKey(0)
        x = LinearLayer(512, dtype=self.dtype, rng=rng)(z)
        return nn.leaky_relu(x, 0.2)
