from numpyro_lite.distributions.truncated import Normal, TwoSidedTruncatedDistribution

__all__ = ["Normal", "TwoSidedTruncatedDistribution"]
