import jax.numpy as jnp
import numpyro

from model import numpyro_abm


def infected_curve(seed):
    fixed = {"p_infect": 0.3, "initial_infected": 0.1}
    m = numpyro.handlers.substitute(numpyro.handlers.seed(numpyro_abm, rng_seed=seed), data=fixed)
    return numpyro.handlers.trace(m).get_trace(16, 10)["I_t"]["value"]


if __name__ == "__main__":
    a = infected_curve(0)
    b = infected_curve(1)
    print("ABM infections identical under different seeds:", bool(jnp.all(a == b)))
