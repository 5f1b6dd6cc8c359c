from typing import Dict

import jax


class FlaxModelMixin:
    config_name = "config.json"

    def init_weights(self, rng: jax.random.KeyArray) -> Dict:
        raise NotImplementedError(f"init_weights method has to be implemented for {self}")
