import flax
import jax
import jax.numpy as jnp
import numpy as np


class TestFlaxLinear(flax.linen.Module):
    out_size: int

    def setup(self):
        self._linear = flax.linen.Dense(self.out_size)

    def __call__(self, x):
        x = np.asarray(x)
        return self._linear(x)


class TestFlaxModule(flax.linen.Module):
    in_size: int
    out_size: int
    hidden_size: int = 4

    def setup(self):
        self._linear0 = TestFlaxLinear(self.hidden_size)
        self._linear1 = TestFlaxLinear(self.hidden_size)
        self._linear2 = TestFlaxLinear(self.out_size)

    def __call__(self, x):
        x = jnp.expand_dims(x, 0)
        x = jnp.tanh(self._linear0(x))
        x = jnp.tanh(self._linear1(x))
        return jnp.tanh(self._linear2(x))[0]


if __name__ == "__main__":
    test_input = jnp.array([[0.1, 0.2]], dtype="float32")
    model = TestFlaxModule(in_size=2, out_size=2)
    variables = model.init(jax.random.PRNGKey(0), test_input)
    print(jax.jit(model.apply)(variables, test_input))
