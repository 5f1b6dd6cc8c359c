from jax import jit
from jax.nn import one_hot

if __name__ == "__main__":
    print(jit(one_hot, static_argnums=1)(3, 5).tolist())
