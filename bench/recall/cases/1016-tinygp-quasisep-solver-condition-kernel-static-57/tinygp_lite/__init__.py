from tinygp_lite.gp import GaussianProcess

__all__ = ["GaussianProcess"]
