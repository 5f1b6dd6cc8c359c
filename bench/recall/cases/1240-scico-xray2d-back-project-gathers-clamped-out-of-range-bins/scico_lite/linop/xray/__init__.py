from ._xray import XRayTransform2D
