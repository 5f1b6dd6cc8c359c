import jax

from axlearn_lite.common.base_layer import NestedTensor, ParameterNoise, Tensor
from axlearn_lite.common.config import REQUIRED, Required, config_class


class VariationalNoise(ParameterNoise):
    """Variational noise layer."""

    @config_class
    class Config(ParameterNoise.Config):
        """Configures VariationalNoise."""

        vn_std: Required[float] = REQUIRED

    def apply(self, prng_key: Tensor, params: NestedTensor) -> NestedTensor:
        cfg = self.config
        if cfg.vn_std <= 0:
            return params

        # Split PRNG key for each parameter to ensure independent noise
        flat_params, tree_def = jax.tree.flatten(params)
        keys = jax.random.split(prng_key, len(flat_params))

        def add_noise(x, key):
            return x + jax.random.normal(key, x.shape, dtype=x.dtype) * cfg.vn_std

        noisy_flat_params = [add_noise(p, k) for p, k in zip(flat_params, keys)]
        return jax.tree.unflatten(tree_def, noisy_flat_params)
