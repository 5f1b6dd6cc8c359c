import jax
import jax.numpy as jnp


def nansum(x):
    mask = ~jnp.isnan(x)  # boolean mask selecting non-nan values
    x_without_nans = x[mask]
    return x_without_nans.sum()


if __name__ == "__main__":
    x = jnp.array([1, 2, jnp.nan, 3, 4])
    print(nansum(x))
    jax.jit(nansum)(x)
