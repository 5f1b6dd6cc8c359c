import jax.numpy as snp

from scico_lite.functional import L1Norm, SquaredL2Loss
from scico_lite.optimize import PGM

if __name__ == "__main__":
    y = snp.array([3.0, -0.2, 0.05, -2.0])
    solver = PGM(f=SquaredL2Loss(y), g=L1Norm(), L0=1.0, x0=snp.zeros_like(y), maxiter=10)
    try:
        x = solver.solve()
        print("solution:", x)
    except TypeError as e:
        print("TypeError:", str(e).splitlines()[0])
