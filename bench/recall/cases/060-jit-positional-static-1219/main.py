import time

from jax import jit, numpy

a = numpy.ones((1000000,)) * 3
b = numpy.ones((1000000,)) * 5
f = jit(numpy.multiply)

if __name__ == "__main__":
    times = []
    for _ in range(10):
        start = time.time()
        res = f(a, b)
        res.block_until_ready()   # block!
        times.append(time.time() - start)
    print("Avg:", sum(times) / 10)
