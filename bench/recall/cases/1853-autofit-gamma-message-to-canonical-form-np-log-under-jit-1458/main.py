import jax
import jax.numpy as jnp

from autofit_lite.messages import GammaMessage

message = GammaMessage(alpha=2.0, beta=3.0)


@jax.jit
def factor_log_likelihood(x):
    # exponential-family term eta . T(x) of the Gamma message at a traced x
    eta = message.natural_parameters(xp=jnp)
    return jnp.sum(eta * GammaMessage.to_canonical_form(x, xp=jnp))


if __name__ == "__main__":
    try:
        print("jit:", factor_log_likelihood(jnp.asarray(0.5)))
    except Exception as e:
        print("jit:", type(e).__name__, str(e).splitlines()[0])
