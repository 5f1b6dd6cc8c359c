import jax
import jax.numpy as jnp

import jaxquantum_lite as jqt


def ground_population(beta):
    return jnp.real(jqt.thermal(4, beta).data[0, 0])


if __name__ == "__main__":
    betas = jnp.array([0.5, 1.0, 2.0])
    print("populations:", jax.vmap(ground_population)(betas).round(3))
