import jax
import jax.numpy as jnp

from pfjax_lite import mcmc


@jax.jit
def adapt_step(rw_sd, n_accept, n_iter):
    # cumulative acceptance rate of each parameter's MWG proposals
    accept_rate = n_accept / n_iter
    return mcmc.mwg_adapt(rw_sd, accept_rate, n_iter)


if __name__ == "__main__":
    rw_sd = jnp.array([0.1, 0.5])
    try:
        print("adapted:", adapt_step(rw_sd, jnp.array([10.0, 90.0]), 100.0))
    except jax.errors.TracerBoolConversionError as e:
        print("TracerBoolConversionError:", str(e).splitlines()[0])
