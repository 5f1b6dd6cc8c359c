import jax
import numpy as onp
from jax import jit

from graphnet.layers import mp

N_GRAPHS = 200

rs = onp.random.RandomState(0)
As = [rs.rand(5, 5).astype(onp.float32) for _ in range(N_GRAPHS)]
Fs = [rs.rand(5, 3).astype(onp.float32) for _ in range(N_GRAPHS)]
params = {'w': rs.rand(5, 5).astype(onp.float32), 'b': onp.zeros((5, 3), onp.float32)}

if __name__ == "__main__":
    eqns = jax.make_jaxpr(mp)(params, As, Fs).jaxpr.eqns
    print("equations:", len(eqns), "for", N_GRAPHS, "graphs")
    print("unrolled:", len(eqns) >= 2 * N_GRAPHS)
    outputs = jit(mp)(params, As, Fs)
    print("outputs:", len(outputs))
