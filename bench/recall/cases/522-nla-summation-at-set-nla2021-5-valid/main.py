import jax
import jax.numpy as jnp

n = 10 ** 6
sm = 1e-10
x = jnp.ones(n, dtype=jnp.float32) * sm
x = x.at[0].set(1)
true_sum = 1.0 + (n - 1) * sm
approx_sum = jnp.sum(x)
print('Error in sum: {0:3.1e}'.format(approx_sum - true_sum))
