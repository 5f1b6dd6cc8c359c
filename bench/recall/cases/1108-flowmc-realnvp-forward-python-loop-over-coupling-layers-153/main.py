import jax
import jax.numpy as jnp

from flowmc_lite.nfmodel.realNVP import RealNVP


def n_eqns(n_layers):
    model = RealNVP(4, n_layers, 8, key=jax.random.PRNGKey(0))
    x = jnp.ones(4)
    print("log_prob:", float(model.log_prob(x)))
    return len(jax.make_jaxpr(model.forward)(x).eqns)


if __name__ == "__main__":
    small, big = n_eqns(2), n_eqns(8)
    print("unrolled:", big > small)
