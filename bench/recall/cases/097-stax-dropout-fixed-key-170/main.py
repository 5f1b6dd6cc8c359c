import jax.numpy as np
from jax import random
from jax.random import PRNGKey

seed = 0


def Dropout(rate, mode='train'):
    def init_fun(input_shape):
        return input_shape, ()

    def apply_fun(params, inputs, **kwargs):
        rng = kwargs.get('rng', None)
        rng = PRNGKey(seed)
        keep = random.bernoulli(rng, rate, inputs.shape)
        return np.where(keep, inputs / rate, 0)

    return init_fun, apply_fun


if __name__ == "__main__":
    _, apply_fun = Dropout(0.4)
    key = random.PRNGKey(1)
    inputs = np.ones((10, 8))
    key, subkey = random.split(key)
    a = apply_fun((), inputs, rng=subkey)
    key, subkey = random.split(key)
    b = apply_fun((), inputs, rng=subkey)
    print("same dropout pattern:", bool((a == b).all()))
