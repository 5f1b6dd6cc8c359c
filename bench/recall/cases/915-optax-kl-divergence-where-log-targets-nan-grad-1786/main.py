import jax
import jax.numpy as jnp

import optax_lite as optax


if __name__ == "__main__":
    log_ps = jax.nn.log_softmax(jnp.array([0.5, 1.0, 2.0, -1.0]))
    qs = jnp.array([0.0, 0.4, 0.6, 0.0])
    g = jax.grad(optax.kl_divergence, argnums=1)(log_ps, qs)
    print("value:", optax.kl_divergence(log_ps, qs))
    print("nan in grad wrt targets:", bool(jnp.isnan(g).any()))
