from ot_lite.lp import emd

__all__ = ["emd"]
