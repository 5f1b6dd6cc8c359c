import jax.numpy as jnp
import jax.random as jr

key = jr.PRNGKey(123)

n = 100
noise = 0.3

x = jr.uniform(key=key, minval=-3.0, maxval=3.0, shape=(n, 1)).sort()
f = lambda x: jnp.sin(4 * x) + jnp.cos(2 * x)
signal = f(x)
y = signal + jr.normal(key, shape=signal.shape) * noise

if __name__ == "__main__":
    eps = (y - signal) / noise
    print("correlated:", bool(jnp.corrcoef(x.ravel(), eps.ravel())[0, 1] > 0.9))
