"""
discopt -- Mixed-Integer Nonlinear Programming with JAX and Rust.
"""

__version__ = "0.9.0"

# Enable JAX 64-bit mode before any downstream discopt import triggers a
# jax import. IPOPT tolerances (default tol=1e-6, bound_relax_factor=1e-8)
# are incompatible with float32 residuals. Users who need float32
# can opt out by setting ``JAX_ENABLE_X64=0`` in the environment before
# importing discopt.
#
# We set the environment variable rather than importing jax here: JAX reads
# ``JAX_ENABLE_X64`` at its own (lazy) import time, so this keeps ``import
# discopt`` free of the multi-second jax import.
import os as _os

if _os.environ.get("JAX_ENABLE_X64", "1") != "0":
    _os.environ.setdefault("JAX_ENABLE_X64", "1")

from discopt_lite.modeling import residual as residual
