from ._linear import FullyLinear as FullyLinear
