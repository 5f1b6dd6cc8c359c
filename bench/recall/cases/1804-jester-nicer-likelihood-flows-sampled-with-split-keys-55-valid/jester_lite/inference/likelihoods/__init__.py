from jester_lite.inference.likelihoods.nicer import NICERLikelihood

__all__ = ["NICERLikelihood"]
