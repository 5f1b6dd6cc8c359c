from .rotation import Rotation
from .skew import Skew
from .utils import safe_norm
