import jax.numpy as np
from jax import random

from flows_lite.bijections import MADE, MaskedDense, get_made_mask


def serial(*layers):
    init_funs, apply_funs = zip(*layers)

    def init_fun(rng, input_shape):
        params = []
        for init in init_funs:
            rng, layer_rng = random.split(rng)
            input_shape, param = init(layer_rng, input_shape)
            params.append(param)
        return input_shape, params

    def apply_fun(params, inputs, **kwargs):
        for fun, param in zip(apply_funs, params):
            inputs = fun(param, inputs)
        return inputs

    return init_fun, apply_fun


if __name__ == "__main__":
    input_dim, hidden_dim = 3, 8
    input_mask = get_made_mask(input_dim, hidden_dim, input_dim, mask_type="input")
    output_mask = get_made_mask(hidden_dim, 2 * input_dim, input_dim, mask_type="output")
    joiner = MaskedDense(hidden_dim, input_mask)
    trunk = serial(MaskedDense(2 * input_dim, output_mask))
    init_fun = MADE(joiner, trunk, hidden_dim)
    params, direct_fun, inverse_fun = init_fun(random.PRNGKey(0), (input_dim,))
    x, _ = inverse_fun(params, np.ones((4, input_dim)))
    print(x.shape)
