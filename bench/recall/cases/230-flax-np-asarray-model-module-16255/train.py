import jax
import jax.numpy as jnp

from model import TestFlaxModule


@jax.jit
def predict(variables, x):
    return TestFlaxModule(in_size=2, out_size=2).apply(variables, x)


if __name__ == "__main__":
    test_input = jnp.array([[0.1, 0.2]], dtype="float32")
    model = TestFlaxModule(in_size=2, out_size=2)
    variables = model.init(jax.random.PRNGKey(0), test_input)
    print(predict(variables, test_input))
