from ._ppoly import CubicSpline
