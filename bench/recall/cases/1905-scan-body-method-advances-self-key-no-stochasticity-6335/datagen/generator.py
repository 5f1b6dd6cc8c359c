import jax.random as jrandom
from jax.lax import scan

from datagen.sampling import sample, sample_distribution


class DataGenerator:
    def __init__(self, seed):
        self.key = jrandom.PRNGKey(seed)

    def _sample_step(self, prev_val, xs):
        self.key, sub_key = jrandom.split(self.key)
        new_val = sample_distribution(sub_key, prev_val)
        return new_val, prev_val

    def gen_data(self, init_x):
        init_val = sample(self.key, init_x)
        _, vals = scan(self._sample_step, init_val, None, length=100)
        return vals
