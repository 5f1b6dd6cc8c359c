import jax.numpy as np
from jax import random
from jax.example_libraries import stax
from jax.example_libraries.stax import Dense, Relu, Dropout, LogSoftmax

init_fun, apply_fun = stax.serial(
    Dense(512), Relu, Dropout(0.4, mode='train'),
    Dense(512), Relu, Dropout(0.4, mode='train'),
    Dense(3), LogSoftmax
)

if __name__ == "__main__":
    # Initialize parameters, not committing to a batch shape
    in_shape = (-1, 28 * 28)
    out_shape, net_params = init_fun(random.PRNGKey(1), in_shape)

    # Every time we want a new random dropout pattern, we split the prng key and
    # pass a fresh subkey into the call
    key = random.PRNGKey(0)
    inputs = np.ones((10, 28 * 28))

    key, subkey = random.split(key)
    out1 = apply_fun(net_params, inputs, rng=subkey)
    key, subkey = random.split(key)
    out2 = apply_fun(net_params, inputs, rng=subkey)
    print("same dropout mask:", bool((out1 == out2).all()))
