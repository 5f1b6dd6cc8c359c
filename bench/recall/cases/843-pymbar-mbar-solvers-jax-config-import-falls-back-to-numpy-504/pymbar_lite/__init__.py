from pymbar_lite import mbar_solvers
