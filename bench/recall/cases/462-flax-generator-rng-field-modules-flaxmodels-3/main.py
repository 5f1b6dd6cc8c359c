import jax
import jax.numpy as jnp

from stylegan2.generator import Generator

# Create a StyleGAN2 Generator Flax.Module
G_model = Generator()


def init_g(g_rng):
    z_shape = (4, 512)

    @jax.jit
    def _init(*args):
        return G_model.init(*args, train=True)

    variables = _init({'params': g_rng}, jnp.ones(z_shape, G_model.dtype))
    return variables['params']


if __name__ == "__main__":
    params_1 = init_g(jax.random.PRNGKey(10))
    params_2 = init_g(jax.random.PRNGKey(58))
    w1 = params_1['LinearLayer_0']['weight']
    w2 = params_2['LinearLayer_0']['weight']
    print("same params for different init keys:", bool(jnp.allclose(w1, w2)))
