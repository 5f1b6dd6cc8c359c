import jax
import jax.numpy as jnp
import jax.random as jr

# BAD: Key reuse — produces identical values
key = jr.key(42)
val1 = jr.normal(key, shape=(3,))
val2 = jr.normal(key, shape=(3,)) # Same as val1!
print("BAD - Reused key (identical):")
print(f"val1: {val1}")
print(f"val2: {val2}")
print(f"Equal? {jnp.allclose(val1, val2)}")
print()

# BAD: the same key passed to every vmapped worker
def worker(k, x):
    return x + jr.normal(k)

xs = jnp.arange(4.0)
noisy = jax.vmap(worker, in_axes=(None, 0))(key, xs)

if __name__ == "__main__":
    print("same noise in every worker:", bool(jnp.allclose(noisy - xs, (noisy - xs)[0])))
