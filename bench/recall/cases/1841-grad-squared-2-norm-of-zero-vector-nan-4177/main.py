import jax.numpy as np
from jax import grad


vec = np.zeros(2)

def squared_2_norm(x):
    return np.linalg.norm(x) ** 2

gradient_norm = grad(squared_2_norm)

if __name__ == "__main__":
    print(squared_2_norm(vec))
    g = gradient_norm(vec)
    print(g)
    print("nan in grad:", bool(np.isnan(g).any()))
