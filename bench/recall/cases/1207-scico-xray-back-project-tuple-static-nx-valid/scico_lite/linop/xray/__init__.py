from ._xray import Parallel2dProjector
