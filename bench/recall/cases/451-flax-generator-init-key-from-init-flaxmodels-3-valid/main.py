import flax.linen as nn
import jax
import jax.numpy as jnp


class LinearLayer(nn.Module):
    features: int
    dtype: str = 'float32'

    @nn.compact
    def __call__(self, x):
        w_init = lambda key, shape: jax.random.normal(key, shape, self.dtype)
        w = self.param('weight', w_init, (x.shape[-1], self.features))
        return x @ w


class Generator(nn.Module):
    dtype: str = 'float32'

    @nn.compact
    def __call__(self, z, train=True):
        x = LinearLayer(512, dtype=self.dtype)(z)
        return nn.leaky_relu(x, 0.2)


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
