import jax


class GenerateRNG:
    """Stand-in for fjformer.GenerateRNG: every read of .rng splits a fresh key."""

    def __init__(self, seed: int = 0):
        self.seed = seed
        self._rng = jax.random.PRNGKey(seed)

    @property
    def rng(self):
        self._rng, key = jax.random.split(self._rng)
        return key
