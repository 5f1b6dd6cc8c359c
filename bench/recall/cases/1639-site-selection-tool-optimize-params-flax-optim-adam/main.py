import jax.numpy as jnp

from bsst_lite import optimization

if __name__ == "__main__":
    target = jnp.array([0.2, 0.7, 0.1])
    final = optimization.optimize_params(
        jnp.zeros(3), lambda p: jnp.sum((p - target) ** 2), verbose=False)
    print("final params:", final.round(2))
