from note_lite.kernel import kernel
from note_lite.nn import nn

__all__ = ["kernel", "nn"]
