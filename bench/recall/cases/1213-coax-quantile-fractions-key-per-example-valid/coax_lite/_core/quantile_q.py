import jax
import jax.numpy as jnp
import numpy as onp
import haiku as hk


class QuantileQ:
    r"""

    A quantile q-function :math:`q(s,a,\tau)`, represented by a stochastic function
    :math:`\mathbb{P}_\theta(G_t|S_t=s,A_t=a)` evaluated at quantile fractions :math:`\tau`.

    """

    def __init__(self, func, num_quantiles=8, random_seed=None):
        self.func = func
        self.num_quantiles = num_quantiles
        self.random_seed = random_seed

    @classmethod
    def example_data(cls, num_quantiles, batch_size=1, random_seed=None):

        rnd = onp.random.RandomState(random_seed)
        rngs = hk.PRNGSequence(rnd.randint(jnp.iinfo('int32').max))

        # input: quantiles
        quantiles = QuantileQ.sample_quantiles(num_quantiles, batch_size, next(rngs))
        return quantiles

    @classmethod
    def sample_quantiles(cls, num_quantiles, batch_size, random_seed):
        rngs = hk.PRNGSequence(random_seed)
        quantiles = [jax.random.uniform(next(rngs), shape=(1, num_quantiles))
                     for _ in range(batch_size)]
        quantiles = [quantiles_fractions /
                     jnp.sum(quantiles_fractions, axis=-1, keepdims=True)
                     for quantiles_fractions in quantiles]
        quantiles = [jnp.cumsum(quantiles_fractions, axis=-1) for quantiles_fractions in quantiles]
        quantiles = jax.tree.map(lambda *x: jnp.concatenate(x, axis=0), *quantiles)
        return quantiles
