import jax
import jax.numpy as jnp


@jax.jit
def nansum_2(x):
    mask = ~jnp.isnan(x)  # boolean mask selecting non-nan values
    return jnp.where(mask, x, 0).sum()


if __name__ == "__main__":
    x = jnp.array([1, 2, jnp.nan, 3, 4])
    print(nansum_2(x))
