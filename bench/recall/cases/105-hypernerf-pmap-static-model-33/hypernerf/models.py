from typing import Any, Mapping

import flax.linen as nn


class NerfModel(nn.Module):
    embeddings_dict: Mapping[str, Any]

    @nn.compact
    def __call__(self, x):
        return nn.Dense(4)(x)
