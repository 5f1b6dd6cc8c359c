from jax import numpy, random

key = random.PRNGKey(1337)
s1 = random.multivariate_normal(
    key, numpy.array([0]), numpy.eye(1), shape=(10000,)
)
s2 = random.multivariate_normal(key, s1, numpy.eye(1))
print(numpy.cov(s2, rowvar=False))
s3 = random.multivariate_normal(key, s1[:9998], numpy.eye(1))
print(numpy.cov(s3, rowvar=False))
print("variance near 4:", bool(abs(numpy.cov(s2, rowvar=False) - 4.0) < 0.3))
