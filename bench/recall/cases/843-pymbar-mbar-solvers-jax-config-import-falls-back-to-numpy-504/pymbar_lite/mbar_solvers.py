import logging
import warnings

import numpy as np

# Optimize imported here and below as the jax-optimized one is jax or passthrough, but this is required regardless
import scipy.optimize

use_jit = False
force_no_jax = False  # Temporary until we can make a proper setting to enable/disable by choice
try:
    #### JAX related imports
    if force_no_jax:
        # Capture user-disabled JAX instead "JAX not found"
        raise ImportError("Jax disabled by force_no_jax in mbar_solvers.py")
    try:
        from jax.config import config

        config.update("jax_enable_x64", True)

        from jax.numpy import exp, sum, newaxis, diag, dot, s_
        from jax.numpy import pad as npad
        from jax.numpy.linalg import lstsq
        import jax.scipy.optimize as optimize_maybe_jax
        from jax.scipy.special import logsumexp

        from jax import jit as jit_or_passthrough

        use_jit = True
    except ImportError:
        # Catch no JAX and throw a warning
        warnings.warn(
            "\n"
            "********* JAX NOT FOUND *********\n"
            " PyMBAR can run faster with JAX  \n"
            " But will work fine without it   \n"
            "Either install with pip or conda:\n"
            "      pip install pybar[jax]     \n"
            "               OR                \n"
            "      conda install pymbar       \n"
            "*********************************"
        )
        raise  # Continue with the raised Import Error

except ImportError:
    # No JAX found, overlap imports
    # These imports MUST align exactly
    from numpy import exp, sum, newaxis, diag, dot, s_
    from numpy import pad as npad
    from numpy.linalg import lstsq
    import scipy.optimize as optimize_maybe_jax  # pylint: disable=reimported
    from scipy.special import logsumexp

    # No jit, so make a passthrough decorator
    def jit_or_passthrough(fn):
        return fn


logger = logging.getLogger(__name__)

if use_jit is False:
    logger.info("JAX was either not detected or disabled, using standard NumPy and SciPy")
else:
    logger.info("JAX detected. Using JAX acceleration.")


@jit_or_passthrough
def mbar_gradient(u_kn, N_k, f_k):
    """Gradient of the MBAR objective (as in pymbar)."""
    log_denominator_n = logsumexp(f_k - u_kn.T, b=N_k, axis=1)
    log_numerator_k = logsumexp(-log_denominator_n - u_kn, axis=1)
    return -1 * N_k * (1.0 - exp(f_k + log_numerator_k))
