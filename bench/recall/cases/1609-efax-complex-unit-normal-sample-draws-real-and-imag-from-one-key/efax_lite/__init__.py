from ._src.distributions.complex_normal.unit_variance import (ComplexUnitVarianceNormalEP,
                                                              ComplexUnitVarianceNormalNP)
