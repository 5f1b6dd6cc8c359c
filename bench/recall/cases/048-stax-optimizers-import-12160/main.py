from jax import grad, jit, random
from jax.experimental import stax, optimizers

if __name__ == "__main__":
    print(stax, optimizers)
