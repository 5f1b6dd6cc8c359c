from jax import numpy, random

key = random.PRNGKey(1337)
key1, key2 = random.split(key)
s1 = random.multivariate_normal(
    key1, numpy.array([0]), numpy.eye(1), shape=(10000,)
)
s2 = random.multivariate_normal(key2, s1, numpy.eye(1))
print(numpy.cov(s2, rowvar=False))
print("variance near 2:", bool(abs(numpy.cov(s2, rowvar=False) - 2.0) < 0.3))
