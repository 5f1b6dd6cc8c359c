import jax
import jax.numpy as np


def distance(ri, rj, keep_mask):
    d2 = np.sum(np.power(ri - rj, 2), axis=-1)
    d2 = np.where(keep_mask, d2, np.ones_like(d2))
    return np.sqrt(d2)


def pairwise(conf, charges):
    ri = np.expand_dims(conf, 0)
    rj = np.expand_dims(conf, 1)
    keep_mask = 1 - np.eye(conf.shape[0])
    dij = distance(ri, rj, keep_mask)

    qi = np.expand_dims(charges, 0)  # (1, N)
    qj = np.expand_dims(charges, 1)  # (N, 1)
    qij = np.multiply(qi, qj)

    eij = np.where(keep_mask, qij/dij, np.zeros_like(dij))  # zero out diagonals

    return np.sum(eij)


if __name__ == "__main__":
    charges = np.array([1.3, 0.3, 0.3, 0.3, 0.3])
    conf = np.array([
        [0.0637, 0.0126, 0.2203],
        [1.0573, -0.2011, 1.2864],
        [2.3928, 1.2209, -0.2230],
        [-0.6891, 1.6983, 0.0780],
        [-0.6312, -1.6261, -0.2601]
    ])
    g = jax.jacrev(pairwise, 0)(conf, charges)
    print("nan gradient:", bool(np.isnan(g).any()))
