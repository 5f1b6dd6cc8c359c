import jax.numpy as np

from timemachine_lite.potentials.jax_utils import distance, delta_r


def harmonic_bond(conf, params, box, bond_idxs, param_idxs):
    """
    Compute the harmonic bond energy given a collection of molecules.
    """
    ci = conf[bond_idxs[:, 0]]
    cj = conf[bond_idxs[:, 1]]
    dij = distance(ci, cj, box)
    kbs = params[param_idxs[:, 0]]
    r0s = params[param_idxs[:, 1]]
    energy = np.sum(kbs/2 * np.power(dij - r0s, 2.0))
    return energy
