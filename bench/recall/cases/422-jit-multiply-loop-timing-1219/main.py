from jax import numpy, jit
import time

a = numpy.ones((1000000,)) * 3
b = numpy.ones((1000000,)) * 5
f = jit(numpy.multiply)

if __name__ == "__main__":
    for _ in range(10):
        start = time.time()
        f(a, b)
        print(time.time() - start)
