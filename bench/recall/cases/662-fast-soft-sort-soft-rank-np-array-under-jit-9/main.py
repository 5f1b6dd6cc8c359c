import jax.numpy as jnp
from fast_soft_sort_lite.jax_ops import soft_rank
from jax import grad, jit


@jit
def f1(x):
    x = x.reshape(1, 3)
    y = soft_rank(x)[0]
    return y.mean()


x = jnp.array([1.0, 2.0, 3.0])
f2 = grad(f1)

if __name__ == "__main__":
    print(f2(x))
