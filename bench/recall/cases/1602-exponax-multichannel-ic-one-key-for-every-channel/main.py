import jax
import jax.numpy as jnp

import exponax_lite as ex

if __name__ == "__main__":
    generator = ex.ic.RandomMultiChannelICGenerator(
        [ex.ic.DiffusedNoise(1), ex.ic.DiffusedNoise(1)]
    )
    u = generator(16, key=jax.random.PRNGKey(0))
    print("shape:", u.shape)
    print("same:", bool(jnp.array_equal(u[0], u[1])))
