import jax
import jax.numpy as jn

from objax_lite.optimizer import Momentum

params = [jn.ones(3), jn.zeros(2)]
opt = Momentum(params, momentum=0.9)


@jax.jit
def train_op(lr, grads, m, momentum):
    return opt(lr, params, grads, m, momentum)


if __name__ == "__main__":
    grads = [jn.full(3, 0.5), jn.full(2, 0.1)]
    try:
        new_params, new_m = train_op(0.1, grads, opt.m, 0.5)
        print("updated:", new_params[0])
    except Exception as e:
        print(type(e).__name__, str(e).splitlines()[0])
