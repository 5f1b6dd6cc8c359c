from . import ic
