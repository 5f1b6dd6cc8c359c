import jax

from . import functional


class Simulator:
    def __init__(self, n_markers):
        self.n_markers = n_markers
        self.recombination_vec = jax.numpy.full(n_markers, 0.5)

    def load_population(self, n, key):
        return jax.random.bernoulli(key, 0.5, (n, self.n_markers, 2))

    def cross(self, parents, key):
        return functional.cross(parents, self.recombination_vec, key)
