"""Bennett acceptance ratio (reduced: the one-sided exponential average as its estimate)."""
import numpy as np
from scipy.special import logsumexp


def bar(w_F, w_R, DeltaF=0.0, method="bisection", relative_tolerance=1e-5,
        verbose=False, maximum_iterations=100, compute_uncertainty=True):
    w_F = np.asarray(w_F)
    w_R = np.asarray(w_R)
    forward = -(logsumexp(-w_F) - np.log(len(w_F)))
    reverse = logsumexp(-w_R) - np.log(len(w_R))
    return {"Delta_f": 0.5 * (forward + reverse)}
