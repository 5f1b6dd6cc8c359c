from functools import partial

import jax
import jax.numpy as jnp

from pmwd_lite.configuration import Configuration
from pmwd_lite.nbody import nbody


@partial(jax.jit, static_argnums=(2,))
def model(disp0, cosmo, conf):
    ptcl = (disp0, jnp.zeros_like(disp0), jnp.zeros_like(disp0))
    ptcl, _ = nbody(ptcl, None, cosmo, conf)
    return ptcl[0]


if __name__ == "__main__":
    conf = Configuration()
    disp0 = jax.random.normal(jax.random.PRNGKey(0), (conf.mesh_size ** 3, 3))
    jaxpr = jax.make_jaxpr(model, static_argnums=(2,))(disp0, 0.3, conf)
    n_eqns = len(jaxpr.eqns[0].params["jaxpr"].jaxpr.eqns)
    print("equations:", n_eqns, "steps:", conf.a_nbody_num)
    print("unrolled:", n_eqns > 5 * conf.a_nbody_num)
