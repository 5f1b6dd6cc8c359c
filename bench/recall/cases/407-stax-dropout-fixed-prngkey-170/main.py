import jax.numpy as np
from jax import random
from jax.random import PRNGKey
from jax.example_libraries import stax
from jax.example_libraries.stax import Dense, Relu, LogSoftmax


def Dropout(rate, mode='train', seed=0):
    """Layer construction function for a dropout layer with given rate."""
    def init_fun(rng, input_shape):
        return input_shape, ()

    def apply_fun(params, inputs, **kwargs):
        rng = kwargs.get('rng', None)
        if rng is None:
            msg = ("Dropout layer requires apply_fun to be called with a PRNG key "
                   "argument. That is, instead of `apply_fun(params, inputs)`, call "
                   "it like `apply_fun(params, inputs, rng)` where `rng` is a "
                   "jax.random.PRNGKey value.")
            raise ValueError(msg)
        if mode == 'train':
            rng = PRNGKey(seed)
            keep = random.bernoulli(rng, rate, inputs.shape)
            return np.where(keep, inputs / rate, 0)
        else:
            return inputs
    return init_fun, apply_fun


init_fun, apply_fun = stax.serial(
    Dense(512), Relu, Dropout(0.4, mode='train'),
    Dense(3), LogSoftmax
)

if __name__ == "__main__":
    in_shape = (-1, 28 * 28)
    out_shape, net_params = init_fun(random.PRNGKey(1), in_shape)
    key = random.PRNGKey(0)
    inputs = np.ones((10, 28 * 28))
    key, subkey = random.split(key)
    out1 = apply_fun(net_params, inputs, rng=subkey)
    key, subkey = random.split(key)
    out2 = apply_fun(net_params, inputs, rng=subkey)
    print("same dropout mask:", bool((out1 == out2).all()))
