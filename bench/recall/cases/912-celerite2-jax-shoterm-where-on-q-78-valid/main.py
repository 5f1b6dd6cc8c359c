import jax
import jax.numpy as jnp
import numpyro
import numpyro.distributions as dist
from numpyro.infer.util import log_density

from celerite2_lite.jax import terms


def model(x, yerr, y=None):
    log_Q = numpyro.sample("log_Q", dist.Normal(0.0, 2.0))
    term = terms.SHOTerm(S0=1.0, w0=1.0, Q=jnp.exp(log_Q))
    K = term.to_dense(x, yerr**2 * jnp.ones_like(x))
    numpyro.sample("obs", dist.MultivariateNormal(jnp.zeros_like(x), K), obs=y)


if __name__ == "__main__":
    x = jnp.linspace(0.0, 5.0, 20)
    y = jnp.sin(x)
    yerr = 1e-2
    potential = jax.jit(lambda p: log_density(model, (x, yerr), {"y": y}, p)[0])
    print("finite:", bool(jnp.isfinite(potential({"log_Q": jnp.log(0.3)}))))
