import jax.numpy as np
from jax import grad, jit

from minmax_demo import make_momentum


def loss(params, batch):
    inputs, targets = batch
    preds = np.dot(inputs, params)
    return np.mean((preds - targets) ** 2)


if __name__ == "__main__":
    opt_init, opt_update, get_params = make_momentum(1e-2)

    @jit
    def step(i, opt_state, batch):
        params = get_params(opt_state)
        g = grad(loss)(params, batch)
        return opt_update(i, g, opt_state)

    batch = (np.ones((4, 3)), np.ones(4))
    opt_state = opt_init(np.zeros(3))
    for i in range(10):
        opt_state = step(i, opt_state, batch)
    print("trained loss:", float(loss(get_params(opt_state), batch)) < 1.0)
