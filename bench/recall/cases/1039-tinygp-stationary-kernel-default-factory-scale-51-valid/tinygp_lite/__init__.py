from tinygp_lite import kernels

__all__ = ["kernels"]
