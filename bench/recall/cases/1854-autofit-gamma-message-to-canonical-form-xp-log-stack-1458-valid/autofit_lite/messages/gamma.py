import numpy as np


class GammaMessage:

    log_base_measure = 0.0
    _support = ((0, np.inf),)
    _parameter_support = ((0, np.inf), (0, np.inf))

    def __init__(
            self,
            alpha=1.0,
            beta=1.0,
            log_norm=0.0,
            id_=None
    ):
        self.alpha = alpha
        self.beta = beta
        self.log_norm = log_norm
        self.id = id_

    def natural_parameters(self, xp=np) -> np.ndarray:
        return self.calc_natural_parameters(self.alpha, self.beta, xp=xp)

    @staticmethod
    def calc_natural_parameters(alpha, beta, xp=np):
        return xp.stack([alpha - 1, -beta])

    @staticmethod
    def invert_natural_parameters(natural_parameters):
        eta1, eta2 = natural_parameters
        return eta1 + 1, -eta2

    @staticmethod
    def to_canonical_form(x, xp=np):
        return xp.stack([xp.log(x), x])
