from ._fd_derivs import approx_df
from ._spline import Interpolator1D
