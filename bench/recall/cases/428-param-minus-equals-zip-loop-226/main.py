import jax
import jax.numpy as np

learning_rate = 0.1


def loss(params, x):
    w, b = params
    return np.sum((w * x + b) ** 2)


if __name__ == "__main__":
    params = [np.array(1.0), np.array(0.5)]
    grads = jax.grad(loss)(params, np.arange(3.0))
    before = [float(p) for p in params]
    # params and grads are lists of jax.numpy.ndarray
    for param, gradient in zip(params, grads):
        # params does not get updated
        param -= learning_rate * gradient
    print("params updated:", [float(p) for p in params] != before)
