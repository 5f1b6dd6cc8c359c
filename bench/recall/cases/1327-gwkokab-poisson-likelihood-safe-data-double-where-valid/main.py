import jax
import jax.numpy as jnp
import numpyro.distributions as dist

from gwkokab_lite.inference.poissonlikelihood import poisson_likelihood
from gwkokab_lite.models.utils import Bake


def mass_model(loc, scale):
    return dist.LogNormal(loc, scale)


if __name__ == "__main__":
    model = Bake(mass_model, loc=dist.Uniform(0.0, 5.0), scale=dist.Uniform(0.1, 2.0))
    # two events with a different number of posterior samples: the shorter one is padded
    data = [jnp.array([20.0, 25.0, 30.0]), jnp.array([10.0, 12.0])]
    log_ref_priors = [jnp.zeros(3), jnp.zeros(2)]
    _, _, likelihood_fn = poisson_likelihood(model, data, log_ref_priors, lambda m: 0.0)
    x = jnp.array([3.0, 0.5])
    value, grad = jax.jit(jax.value_and_grad(likelihood_fn))(x, None)
    print(f"log posterior finite: {bool(jnp.isfinite(value))}")
    print(f"gradient has NaN: {bool(jnp.any(jnp.isnan(grad)))}")
