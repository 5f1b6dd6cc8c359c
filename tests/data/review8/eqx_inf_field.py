import equinox as eqx
import jax
import jax.numpy as jnp


class Clipper(eqx.Module):
    weight: jax.Array
    max_norm: float = jnp.inf
    scale: float = jnp.pi

    def __call__(self, x):
        return jnp.clip(self.weight * x * self.scale, -self.max_norm, self.max_norm)


@jax.jit
def forward(model, x):
    return model(x)


print(forward(Clipper(jnp.ones(3)), jnp.ones(3)))
