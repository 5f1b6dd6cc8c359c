import jax
import jax.numpy as jnp

from probdiffeq_lite import ivpsolvers


@jax.jit
def transition(output_scale, dt):
    tcoeffs = [jnp.ones(()), jnp.ones(())]
    prior, _ssm = ivpsolvers.prior_ibm(tcoeffs, ssm_fact="dense", output_scale=output_scale)
    return prior.discretize(dt)


if __name__ == "__main__":
    A, Q = transition(jnp.asarray(2.0), 0.1)
    print("Q[0, 0]:", float(Q[0, 0]))
