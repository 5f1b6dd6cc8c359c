from piecewise_lite.branches import func
