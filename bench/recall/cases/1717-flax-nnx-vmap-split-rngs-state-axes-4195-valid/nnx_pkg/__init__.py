from nnx_pkg.model import Model

__all__ = ["Model"]
