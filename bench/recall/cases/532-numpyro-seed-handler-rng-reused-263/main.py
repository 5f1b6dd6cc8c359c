import jax
import jax.numpy as np
from jax import random

from handlers import sample, seed


def student_t(df, random_state=None):
    # like numpyro's StudentT: splits the key it is given
    key_n, key_g = random.split(random_state)
    n = random.normal(key_n)
    g = random.gamma(key_g, df / 2.)
    return n * np.sqrt(df / 2. / g)


def model():
    x = sample('x', student_t, df=3.)
    y = sample('y', student_t, df=3.)
    return x, y


if __name__ == "__main__":
    with jax.debug_key_reuse(True):
        print(seed(model, random.key(0))())
