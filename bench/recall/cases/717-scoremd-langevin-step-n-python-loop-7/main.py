import jax
import jax.numpy as jnp

from scoremd_lite.simulation import LangevinSimulator


def double_well_force(x):
    return -4.0 * x * (x**2 - 1.0)


if __name__ == "__main__":
    sim = LangevinSimulator(double_well_force)
    x = jnp.zeros((8, 2))
    v = jnp.zeros((8, 2))
    key = jax.random.PRNGKey(0)
    x, v, key = sim.step_n(x, v, key, 50)
    n10 = len(jax.make_jaxpr(lambda *a: sim.step_n(*a, 10))(x, v, key).eqns[0].params["jaxpr"].eqns)
    n40 = len(jax.make_jaxpr(lambda *a: sim.step_n(*a, 40))(x, v, key).eqns[0].params["jaxpr"].eqns)
    print("traced ops for 10 / 40 steps:", n10, n40)
    print("unrolled:", n40 >= 3 * n10)
