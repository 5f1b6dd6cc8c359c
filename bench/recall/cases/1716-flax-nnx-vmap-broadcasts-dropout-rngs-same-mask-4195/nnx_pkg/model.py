from flax import nnx


class Model(nnx.Module):
    """A stochastic stand-in model: a linear layer followed by dropout."""

    def __init__(self, rngs: nnx.Rngs):
        self.linear = nnx.Linear(8, 8, rngs=rngs)
        self.dropout = nnx.Dropout(0.5, rngs=rngs)

    def __call__(self, x):
        return self.dropout(self.linear(x))
