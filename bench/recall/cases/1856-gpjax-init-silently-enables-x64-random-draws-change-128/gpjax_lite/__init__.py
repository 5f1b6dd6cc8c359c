import jax

jax.config.update("jax_enable_x64", True)

from gpjax_lite.kernels import RBF

__all__ = ["RBF"]
