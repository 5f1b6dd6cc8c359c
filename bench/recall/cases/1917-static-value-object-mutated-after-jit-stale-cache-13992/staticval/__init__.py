from staticval.ops import add
from staticval.value import StaticValue

__all__ = ["StaticValue", "add"]
