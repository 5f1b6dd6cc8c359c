import flax.linen as nn


class MyModel(nn.Module):
    num_neurons: int

    @nn.compact
    def __call__(self, x, training: bool):
        x = nn.Dense(self.num_neurons)(x)
        # Set the dropout layer with a rate of 50%.
        x = nn.Dropout(rate=0.5, deterministic=not training)(x)
        return x
