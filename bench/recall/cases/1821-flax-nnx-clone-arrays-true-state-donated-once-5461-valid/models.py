from flax import nnx


class TestModule(nnx.Module):
    def __init__(self, rngs: nnx.Rngs):
        self.linear = nnx.Linear(in_features=4, out_features=2, rngs=rngs)
        self.linear_copy = nnx.clone(self.linear, arrays=True)
