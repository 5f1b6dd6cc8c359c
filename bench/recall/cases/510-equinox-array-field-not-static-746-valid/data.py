import jax
import jax.random as jr
import equinox as eqx


class Data(eqx.Module):
    data: jax.Array

    def __init__(self, seed):
        self.data = jr.uniform(jr.PRNGKey(seed), (10, 10))
