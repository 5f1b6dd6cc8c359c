import jax
import jax.numpy
import numpy


def loss(w, x):
    return jax.numpy.sum((x @ w) ** 2)


w = jax.numpy.ones((4, 2))
batches = [numpy.random.random((3, 4)) for _ in range(3)]
# averaging multiple gradients
arrays = [jax.grad(loss)(w, x) for x in batches]

numpy.mean(arrays, axis=0)  # works

if __name__ == "__main__":
    print(jax.numpy.mean(arrays, axis=0))
