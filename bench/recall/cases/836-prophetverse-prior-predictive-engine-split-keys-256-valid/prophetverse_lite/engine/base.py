import jax


class BaseInferenceEngine:
    def __init__(self, rng_key=None):
        self.rng_key = rng_key
        if rng_key is None:
            rng_key = jax.random.PRNGKey(0)
        self._rng_key = rng_key

    def infer(self, model, **kwargs):
        self.model_ = model
        return self._infer(**kwargs)

    def predict(self, **kwargs):
        return self._predict(**kwargs)
