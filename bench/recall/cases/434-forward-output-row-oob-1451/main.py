import jax
import jax.numpy as np
import jax.random as random
import jax.nn as nn

print(f'jax version: {jax.__version__}')


# for a dense neural network layer
def random_layer_params(nin, nout, key, scale=1e-2):
    w_key, b_key = random.split(key)
    return scale * random.normal(w_key, (nout, nin)), scale * random.normal(b_key, (nout, 1))


# Initialize all layers for a fully-connected neural network with sizes "sizes"
def init_network_params(sizes, key):
    keys = random.split(key, len(sizes))
    return [random_layer_params(nin, nout, k) for nin, nout, k in zip(sizes[:-1], sizes[1:], keys)]


def forward(params, x):
    act = x

    for (w, b) in params[:-1]:
        out = np.dot(w, act) + b
        act = nn.relu(out)

    final_w, final_b = params[-1]

    out = np.dot(final_w, act) + final_b

    return out


def test():

    D = 2
    x = np.arange(1, D+1)
    x = np.expand_dims(x, axis=1)
    x = np.float32(x)

    hidden_sizes = [6]
    sizes = [D] + hidden_sizes + [D]

    params = init_network_params(sizes, random.PRNGKey(0))

    forward_output = forward(params, x)

    print(f'forward_output shape: {forward_output.shape}')
    print(f'forward_output[D]: {forward_output[D]}')


if __name__ == "__main__":
    test()
    print("no IndexError: True")
