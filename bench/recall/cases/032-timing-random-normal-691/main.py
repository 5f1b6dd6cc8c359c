import time
from jax import random

if __name__ == "__main__":
    t = time.time()
    random.normal(random.PRNGKey(0), shape=(1,))
    print(time.time() - t)
    t = time.time()
    random.normal(random.PRNGKey(0), shape=(1,))
    print(time.time() - t)
