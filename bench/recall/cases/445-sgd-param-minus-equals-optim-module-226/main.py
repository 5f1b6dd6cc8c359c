import jax
import jax.numpy as np

from optim import sgd_update


def loss(params, x):
    w, b = params
    return np.sum((w * x + b) ** 2)


if __name__ == "__main__":
    params = [np.array(1.0), np.array(0.5)]
    before = [float(p) for p in params]
    for step in range(3):
        grads = jax.grad(loss)(params, np.arange(3.0))
        params = sgd_update(params, grads)
    print("params updated:", [float(p) for p in params] != before)
