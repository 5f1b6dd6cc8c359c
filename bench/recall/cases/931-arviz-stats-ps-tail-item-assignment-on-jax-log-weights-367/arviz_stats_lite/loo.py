import numpy as np

from arviz_stats_lite.base.diagnostics import _DiagnosticsBase


def psislw(log_weights, r_eff=1.0):
    """Pareto-smoothed importance sampling of one observation's log weights."""
    n_draws = log_weights.shape[-1]
    n_draws_tail = int(min(0.2 * n_draws, 3 * np.sqrt(n_draws / r_eff)))
    return _DiagnosticsBase()._ps_tail(
        log_weights, n_draws, n_draws_tail, smooth_draws=True, log_weights=True
    )
