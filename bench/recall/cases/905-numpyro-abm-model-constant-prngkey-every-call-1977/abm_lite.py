import jax
import jax.numpy as jnp


def abm(key, grid_size, num_steps, p_infect, initial_infected):
    key, k0 = jax.random.split(key)
    infected = jax.random.uniform(k0, (grid_size, grid_size)) < initial_infected

    def step(carry, k):
        infected = carry
        neighbours = (jnp.roll(infected, 1, 0) | jnp.roll(infected, -1, 0)
                      | jnp.roll(infected, 1, 1) | jnp.roll(infected, -1, 1))
        new = neighbours & (jax.random.uniform(k, infected.shape) < p_infect)
        infected = infected | new
        return infected, infected.sum()

    infected, I_t = jax.lax.scan(step, infected, jax.random.split(key, num_steps))
    return infected, key, I_t
