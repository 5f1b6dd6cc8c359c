from brainpy_lite import math
