import jax
import jax.numpy as jnp
import numpy as np

print(jax.__version__)
print(jnp.take(jnp.arange(5).astype(float), jnp.arange(7)))
print(jnp.take(jnp.arange(5).astype(float), jnp.arange(7), mode='clip'))
print(np.take(np.arange(5).astype(float), np.arange(7), mode='clip'))
