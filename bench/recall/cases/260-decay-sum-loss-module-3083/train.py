import jax
import numpy as np

from losses import decay_sum_jax


@jax.jit
def step(decay, x):
    loss, g = jax.value_and_grad(lambda d: decay_sum_jax(x, d).sum())(decay)
    return decay - 0.01 * g, loss


if __name__ == '__main__':
    x = np.random.randn(30, 30)
    print(step(0.9, x))
    eqns = jax.make_jaxpr(decay_sum_jax)(x, 0.9).jaxpr.eqns
    print("unrolled:", len(eqns) >= x.shape[0])
