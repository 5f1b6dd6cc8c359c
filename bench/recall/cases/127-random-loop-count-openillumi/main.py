import jax
import jax.numpy as jnp


@jax.jit
def simulate(key, x):
    num_steps = jax.random.randint(key, (), 1, 10)
    for _ in range(num_steps):
        x = x * 0.9 + 1.0
    return x


if __name__ == "__main__":
    simulate(jax.random.PRNGKey(0), jnp.zeros(3))
