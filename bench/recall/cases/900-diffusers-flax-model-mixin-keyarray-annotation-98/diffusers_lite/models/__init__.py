from .modeling_flax_utils import FlaxModelMixin
