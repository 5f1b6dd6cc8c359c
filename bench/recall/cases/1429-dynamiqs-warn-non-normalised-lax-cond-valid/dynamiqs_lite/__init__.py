from dynamiqs_lite.utils.wigner_utils import wigner

__all__ = ['wigner']
