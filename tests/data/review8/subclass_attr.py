from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.jit, static_argnums=1)
def forward(x, widths):
    for w in widths:
        x = jnp.tanh(x[:w])
    return x


class Model:
    WIDTHS = []  # each subclass says its widths

    def run(self, x):
        return forward(x, self.WIDTHS)


class Small(Model):
    WIDTHS = (8, 4)


print(Small().run(jnp.ones(16)).shape)
