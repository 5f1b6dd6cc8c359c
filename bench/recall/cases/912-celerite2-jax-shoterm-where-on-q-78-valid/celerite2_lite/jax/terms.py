from jax import numpy as np


class Term:
    def get_coefficients(self):
        raise NotImplementedError("subclasses must implement this method")

    def get_value(self, tau):
        coeff = self.get_coefficients()
        r = self._get_value_real(coeff[:2], tau)
        c = self._get_value_complex(coeff[2:], tau)
        return r + c

    def _get_value_real(self, coefficients, tau):
        ar, cr = coefficients
        tau = np.abs(np.atleast_1d(tau))
        tau = tau[..., None]
        return np.sum(ar * np.exp(-cr * tau), axis=-1)

    def _get_value_complex(self, coefficients, tau):
        ac, bc, cc, dc = coefficients
        tau = np.abs(np.atleast_1d(tau))
        tau = tau[..., None]
        arg = dc * tau
        return np.sum(
            np.exp(-cc * tau) * (ac * np.cos(arg) + bc * np.sin(arg)),
            axis=-1,
        )

    def to_dense(self, x, diag):
        K = self.get_value(x[:, None] - x[None, :])
        return K + np.diag(diag)


class SHOTerm(Term):
    def __init__(self, *, S0, w0, Q, eps=1e-5):
        self.S0, self.w0, self.Q, self.eps = S0, w0, Q, eps

    def get_overdamped_coefficients(self):
        Q = self.Q
        f = np.sqrt(np.maximum(1.0 - 4.0 * Q**2, self.eps))
        return (
            0.5 * self.S0 * self.w0 * Q * np.array([1.0 + 1.0 / f, 1.0 - 1.0 / f]),
            0.5 * self.w0 / Q * np.array([1.0 - f, 1.0 + f]),
        )

    def get_underdamped_coefficients(self):
        Q = self.Q
        f = np.sqrt(np.maximum(4.0 * Q**2 - 1.0, self.eps))
        a = self.S0 * self.w0 * Q
        c = 0.5 * self.w0 / Q
        return (np.array([a]), np.array([a / f]), np.array([c]), np.array([c * f]))

    def get_value(self, tau):
        return np.where(
            np.less(self.Q, 0.5),
            super()._get_value_real(self.get_overdamped_coefficients(), tau),
            super()._get_value_complex(self.get_underdamped_coefficients(), tau),
        )
