import jax
import numpyro
import numpyro.distributions as dist

from abm_lite import abm


# Numpyro model for inference
def numpyro_abm(grid_size, num_steps, data=None):

    p_infect = numpyro.sample("p_infect", dist.Beta(2, 5))
    initial_infected = numpyro.sample("initial_infected", dist.Beta(1, 10))
    _, _, I_t = abm(numpyro.prng_key(), grid_size, num_steps, p_infect, initial_infected)
    numpyro.deterministic("I_t", I_t)

    if data is not None:
        numpyro.sample("obs", dist.Normal(I_t, 5.0), obs=data)
