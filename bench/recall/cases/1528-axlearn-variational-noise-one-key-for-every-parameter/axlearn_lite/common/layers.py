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
        return jax.tree.map(
            lambda x: x + jax.random.normal(prng_key, x.shape, dtype=x.dtype) * cfg.vn_std, params
        )
