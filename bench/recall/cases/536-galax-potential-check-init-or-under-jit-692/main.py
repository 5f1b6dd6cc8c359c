import jax
import jax.numpy as jnp

from galax_lite.potential import LeeSutoTriaxialNFWPotential


@jax.jit
def potential_at(params, q):
    pot = LeeSutoTriaxialNFWPotential(**params)
    return pot.potential(q)


if __name__ == "__main__":
    params = {"m": 1e12, "r_s": 20.0, "a1": 1.0, "a2": 0.9, "a3": 0.8}
    print(potential_at(params, jnp.array([[8.0, 0.0, 0.0]])))
