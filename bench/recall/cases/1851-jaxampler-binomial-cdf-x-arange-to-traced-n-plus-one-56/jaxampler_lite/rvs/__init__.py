from .binomial import Binomial
