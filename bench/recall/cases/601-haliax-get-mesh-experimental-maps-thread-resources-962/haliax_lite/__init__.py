from .partitioning import Axis, round_axis_for_partitioning

__all__ = ["Axis", "round_axis_for_partitioning"]
