import jax.numpy as jnp
from jax import grad


def f(x, pre_filter=False):
    delta = jnp.array((0, 1)) * x
    if pre_filter:
        return jnp.sum(delta[delta > 0]**0.5)
    else:
        return jnp.sum((delta**0.5)[delta > 0])


if __name__ == "__main__":
    print("grad:", grad(f)(1.))
    # NaN if pre_filter == False
    # 0.5 if pre_filter == True
