from typing import Any

import flax.linen as nn
import jax


class LinearLayer(nn.Module):
    features: int
    dtype: str = 'float32'
    rng: Any = None

    @nn.compact
    def __call__(self, x):
        w_init = lambda *args: jax.random.normal(self.rng, (x.shape[-1], self.features), self.dtype)
        w = self.param('weight', w_init, (x.shape[-1], self.features))
        return x @ w
