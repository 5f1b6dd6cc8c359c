from hj_reachability_lite import sets
from hj_reachability_lite.grid import Grid

__all__ = ["Grid", "sets"]
