from flowjax_lite.bijections.affine import Affine
from flowjax_lite.bijections.concatenate import Concatenate

__all__ = ["Affine", "Concatenate"]
