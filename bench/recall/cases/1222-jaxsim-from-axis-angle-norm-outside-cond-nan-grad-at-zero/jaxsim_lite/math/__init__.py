from .rotation import Rotation
from .skew import Skew
