from jax import jit
from jax.nn import one_hot

if __name__ == "__main__":
    print(jit(one_hot)(3, 5))
