from lax_numpy_lite.lax_numpy import sinc
