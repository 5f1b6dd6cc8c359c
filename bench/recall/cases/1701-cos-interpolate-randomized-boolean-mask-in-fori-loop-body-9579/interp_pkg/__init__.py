from interp_pkg.randomized import cosInterpolateRandomized

__all__ = ["cosInterpolateRandomized"]
