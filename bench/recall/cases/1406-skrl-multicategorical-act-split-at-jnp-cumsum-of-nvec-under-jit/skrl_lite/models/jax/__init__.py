from skrl_lite.models.jax.base import Model
from skrl_lite.models.jax.multicategorical import MultiCategoricalMixin

__all__ = ["Model", "MultiCategoricalMixin"]
