import jax
import jax.numpy as jnp

import pyhf_lite
from pyhf_lite.optimize.opt_jax import wrap_objective


class PoissonModel:
    """A one-bin counting model: expected = mu * s + b."""

    def expected_data(self, pars):
        mu, b = pars[0], pars[1]
        return mu * 10.0 + b


def twice_nll(pars, data, pdf):
    lam = pdf.expected_data(pars)
    return jnp.atleast_1d(-2 * (data * jnp.log(lam) - lam - jax.scipy.special.gammaln(data + 1.0)).sum())


if __name__ == '__main__':
    tensorlib, _ = pyhf_lite.get_backend()
    data = tensorlib.astensor([57.0])
    jit_pieces = {'fixed_values': (50.0,), 'fixed_idx': [1], 'variable_idx': [0], 'do_stitch': True}
    func = wrap_objective(twice_nll, data, PoissonModel(), None, do_grad=True, jit_pieces=jit_pieces)
    try:
        value, grad = func(tensorlib.astensor([1.0]))
        print('objective:', float(value), 'grad:', grad)
    except Exception as e:
        print(f'{type(e).__name__}: {str(e).splitlines()[0][:80]}')
