import jax.numpy as jnp
import numpy as np

from dmff_lite.classical.inter import LennardJonesForce

if __name__ == '__main__':

    # atoms: 0, 1, 2, 3
    # exclusion: 0 - 1, 2 - 3
    # nbfix: 0 - 3 (3., 0.3)
    positions = jnp.array([[0, 0, 0], [1, 0, 0], [0, 1, 0], [1, 0, 1]],
                          dtype=float)

    box = jnp.array([[10, 0, 0], [0, 10, 0], [0, 0, 10]], dtype=float)

    pairs = np.array([[0, 1], [0, 2], [0, 3], [1, 2], [1, 3], [2, 3]])

    epsilon = jnp.array([1., 2.])
    sigma = jnp.array([0.1, 0.2])

    map_prm = np.array([0, 0, 1, 1])
    map_nbfix = np.array([[0, 1]])
    epsfix = jnp.array([3.])
    sigfix = jnp.array([0.3])
    map_exclusion = np.array([[0, 1], [2, 3]])
    map_14 = np.array([[]])

    lj = LennardJonesForce(0, 3, map_prm, map_nbfix, map_exclusion, map_14)
    get_energy = lj.generate_get_energy()

    try:
        E = get_energy(positions, box, pairs, epsilon, sigma, epsfix, sigfix)
        print(f"energy: {float(E):.6f}")
    except TypeError as e:
        print(f"TypeError: {str(e).splitlines()[0]}")
