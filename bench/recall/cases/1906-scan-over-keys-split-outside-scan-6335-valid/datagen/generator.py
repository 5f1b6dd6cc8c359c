import jax.random as jrandom
from jax.lax import scan

from datagen.sampling import sample, sample_distribution


class DataGenerator:
    def __init__(self, seed):
        self.key = jrandom.PRNGKey(seed)

    def _sample_step(self, prev_val, sub_key):
        new_val = sample_distribution(sub_key, prev_val)
        return new_val, prev_val

    def gen_data(self, init_x):
        self.key, init_key, steps_key = jrandom.split(self.key, 3)
        init_val = sample(init_key, init_x)
        _, vals = scan(self._sample_step, init_val, jrandom.split(steps_key, 100))
        return vals
