from cpt_pkg.tree import CPT

__all__ = ["CPT"]
