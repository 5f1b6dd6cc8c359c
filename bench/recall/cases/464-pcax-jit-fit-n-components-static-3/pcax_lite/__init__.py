from pcax_lite.pca import fit, recover, transform

__all__ = ["fit", "transform", "recover"]
