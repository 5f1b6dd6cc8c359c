import jax.numpy as jnp
import numpy as np
from jax import grad


def f(params, x, y):
    return jnp.mean(jnp.power((params['w'] * x + params['b']) - y, 2))


x_data = np.linspace(0, 1, 100)
y_data = 2 * x_data + 3

if __name__ == "__main__":
    print(sorted(grad(f)({'w': 2.4, 'b': 10.}, x_data, y_data)))
