import jax.numpy as jnp
from jax import grad
from jax.experimental import optimizers


def loss(x):
    return jnp.sum(x ** 2)


opt_init, opt_update, get_params = optimizers.adam(1e-2)

if __name__ == "__main__":
    opt_state = opt_init(jnp.ones(3))
    for step in range(3):
        g = grad(loss)(get_params(opt_state))
        opt_state = opt_update(step, g, opt_state)
    print(get_params(opt_state))
