from typing import NamedTuple


class PositionD(NamedTuple):
    x: float
    y: float
