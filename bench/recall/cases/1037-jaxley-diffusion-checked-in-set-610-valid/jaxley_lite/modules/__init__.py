from jaxley_lite.modules.base import Module

__all__ = ["Module"]
