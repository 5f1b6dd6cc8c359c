import jax

from probpipe_lite.distributions import EmpiricalDistribution


class Function:
    """An immutable lifted function: calling it on a distribution pushes samples through."""

    def __init__(self, fn, seed=0, n_broadcast_samples=16, dispatch="sequential"):
        self._fn = fn
        self._seed = seed
        self._n_broadcast_samples = n_broadcast_samples
        self._dispatch = dispatch

    def _call_key(self):
        return jax.random.key(self._seed)

    def __call__(self, dist):
        key = self._call_key()
        xs = dist.sample(key, self._n_broadcast_samples)
        return EmpiricalDistribution(jax.vmap(self._fn)(xs))


def function(seed=0, n_broadcast_samples=16, dispatch="sequential"):
    def wrap(fn):
        return Function(fn, seed=seed, n_broadcast_samples=n_broadcast_samples,
                        dispatch=dispatch)
    return wrap
