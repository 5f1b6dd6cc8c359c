import jax
import jax.numpy as jnp
from flowjax_lite.bijections import Affine, Concatenate

bijections = (Affine(loc = jnp.zeros(1)),) * 2
bijection = Concatenate(bijections)


if __name__ == "__main__":
    out = jax.jit(jax.vmap(bijection.transform))(jnp.ones((1, 2)))
    print("out:", out.tolist())
