from probpipe_lite.distributions import Normal
from probpipe_lite.function import Function, function

__all__ = ["Function", "Normal", "function"]
