from tinygp_lite.kernels.stationary import Matern32, Stationary

__all__ = ["Matern32", "Stationary"]
