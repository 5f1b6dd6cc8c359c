import jax.numpy as np
from jax import grad


vec = np.zeros(2)

def sum_of_squares(x):
    return np.sum(x ** 2)

gradient_sum = grad(sum_of_squares)

if __name__ == "__main__":
    print(sum_of_squares(vec))
    g = gradient_sum(vec)
    print(g)
    print("nan in grad:", bool(np.isnan(g).any()))
