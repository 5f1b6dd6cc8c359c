import jax
import jax.numpy as jnp
from jax import random

from interp_pkg import cosInterpolateRandomized


if __name__ == "__main__":
    x = jnp.linspace(0.0, 1.0, 7)
    xp = jnp.linspace(0.0, 1.0, 4)
    fp = jnp.array([0.0, 1.0, 0.0, 1.0])
    try:
        print(cosInterpolateRandomized(x, xp, fp, random.PRNGKey(0)))
    except jax.errors.NonConcreteBooleanIndexError as err:
        print("NonConcreteBooleanIndexError:", str(err).splitlines()[0])
