import jax
from jax import random
from jax.experimental import stax, optimizers


def make_network(num_layers, num_channels):
    layers = []
    for i in range(num_layers - 1):
        layers.append(stax.Dense(num_channels))
        layers.append(stax.Relu)
    layers.append(stax.Dense(3))
    layers.append(stax.Sigmoid)
    return stax.serial(*layers)


if __name__ == "__main__":
    init_fn, apply_fn = make_network(4, 32)
    _, params = init_fn(random.PRNGKey(0), (-1, 2))
    opt_init, opt_update, get_params = optimizers.adam(1e-3)
    print(jax.tree_util.tree_structure(params))
