import jax
import numpy as np
from jax import numpy as jnp, jit


def decay_sum_jax(x, decay):
    y = jnp.zeros(x.shape)
    for t in range(x.shape[0]):
        y = y.at[t].set(x[t] + y[t - 1] * decay)
    return y


decay_sum_jit = jit(decay_sum_jax)

if __name__ == '__main__':
    x = np.random.randn(30, 30)
    decay_sum_jit(x, 0.9)
    eqns = jax.make_jaxpr(decay_sum_jax)(x, 0.9).jaxpr.eqns
    print("unrolled:", len(eqns) >= x.shape[0])
