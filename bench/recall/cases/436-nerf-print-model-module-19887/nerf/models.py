import flax.linen as nn
import jax.numpy as jnp


def normalize(encoding):
    max_reflection_encoding = jnp.max(encoding)
    print(max_reflection_encoding, "max_reflection_encoding")
    return encoding / max_reflection_encoding


class NerfModel(nn.Module):
    num_layers: int = 2
    width: int = 32

    @nn.compact
    def __call__(self, reflection_encoding):
        x = normalize(reflection_encoding)
        for _ in range(self.num_layers):
            x = nn.relu(nn.Dense(self.width)(x))
        return nn.Dense(3)(x)
