"""Solvers for the original linear program OT problem."""
import numpy as np
from scipy.optimize import linear_sum_assignment

from ot_lite.backend import get_backend


def emd_c(a, b, M):
    # stand-in for the network simplex (uniform weights of equal size)
    rows, cols = linear_sum_assignment(M)
    G = np.zeros_like(M)
    G[rows, cols] = a[rows]
    return G, float((G * M).sum())


def emd(a, b, M, numItermax=100000, log=False):
    r"""Solves the Earth Movers distance problem and returns the OT matrix"""
    nx = get_backend(M, a, b)

    # store original tensors
    a0, b0, M0 = a, b, M

    # convert to numpy
    M, a, b = nx.to_numpy(M, a, b)

    # ensure float64
    a = np.asarray(a, dtype=np.float64)
    b = np.asarray(b, dtype=np.float64)
    M = np.asarray(M, dtype=np.float64, order='C')

    G, cost = emd_c(a, b, M)
    return nx.from_numpy(G, type_as=M0)
