import jax
import jax.numpy as jnp
import time

# Assume running on GPU/TPU
key = jax.random.PRNGKey(0)
x = jax.random.normal(key, (1024, 1024))

@jax.jit
def compute_heavy(m):
    return jnp.dot(m, m.T)

# Warm-up call (compilation)
compute_heavy(x).block_until_ready()

# Correct timing - waits for the device to finish
start_time = time.perf_counter()
result = compute_heavy(x)
result.block_until_ready()
end_time = time.perf_counter()
print(f"Correct timing: {end_time - start_time:.6f} seconds")
