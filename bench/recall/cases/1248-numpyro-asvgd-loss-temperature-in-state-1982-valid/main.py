import jax
import jax.numpy as jnp

from einstein_lite.steinvi import ASVGD


def log_density(theta):
    return -0.5 * jnp.sum((theta - 2.0) ** 2)


if __name__ == "__main__":
    asvgd = ASVGD(log_density, num_stein_particles=5, num_cycles=2, trans_speed=2, step_size=0.5)
    init = jax.random.normal(jax.random.PRNGKey(0), (5, 2))
    result = asvgd.run(jax.random.PRNGKey(1), 40, init)
    leaked = isinstance(asvgd.loss_temperature, jax.core.Tracer)
    print("loss temperature left on the object is a tracer:", leaked)
