import jax
import jax.numpy as jnp


def log_density(x):
    n = x.shape[0]
    # out-by-one: the last element is x[n - 1]
    return x[n] ** 2


if __name__ == "__main__":
    x = jnp.arange(1.0, 4.0)
    print("value:", log_density(x))
    print("grad:", jax.grad(log_density)(x))
    print("jacfwd:", jax.jacfwd(log_density)(x))
