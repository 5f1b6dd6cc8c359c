import numpy as np
from jaxlib import xla_client

c = xla_client.ComputationBuilder("simple_scalar")

# define a parameter shape and parameter
param_shape = xla_client.Shape.array_shape(np.dtype(np.float32), ())
x = c.ParameterWithShape(param_shape)
