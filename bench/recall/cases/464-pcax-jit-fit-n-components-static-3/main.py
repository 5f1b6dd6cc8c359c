import jax
import jax.numpy as jnp

import pcax_lite

if __name__ == "__main__":
    x = jax.random.normal(jax.random.PRNGKey(0), (100, 8))
    fit_jit = jax.jit(pcax_lite.fit)
    state = fit_jit(x, 3)
    print(pcax_lite.transform(state, x).shape)
