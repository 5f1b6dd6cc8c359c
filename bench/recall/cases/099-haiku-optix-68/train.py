import haiku as hk
import jax
import jax.numpy as jnp
from jax.experimental import optix


def forward(x):
    return hk.Linear(1)(x)


if __name__ == "__main__":
    net = hk.without_apply_rng(hk.transform(forward))
    params = net.init(jax.random.PRNGKey(0), jnp.ones((2, 3)))
    opt = optix.adam(1e-3)
    opt_state = opt.init(params)
