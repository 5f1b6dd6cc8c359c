import numpy as np
from jax import grad


def calculate_mse(params, x, y):
    return np.mean(np.power((params['w'] * x + params['b']) - y, 2))


# Example data generation
x_data = np.linspace(0, 1, 100)
y_data = 2 * x_data + 3 + np.random.randn(100)

params = {'w': 2.4, 'b': 10.}

if __name__ == "__main__":
    df_calculate_mse = grad(calculate_mse)
    df_calculate_mse(params, x_data, y_data)
