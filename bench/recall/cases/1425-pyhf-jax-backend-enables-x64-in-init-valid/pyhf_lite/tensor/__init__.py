from pyhf_lite.tensor.jax_backend import jax_backend

__all__ = ["jax_backend"]
