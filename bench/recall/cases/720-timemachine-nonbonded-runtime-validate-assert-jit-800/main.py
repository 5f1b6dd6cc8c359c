import jax
from jax import jit
import jax.numpy as jnp

from timemachine_lite.potentials import generic

if __name__ == "__main__":
    nonbonded = generic.Nonbonded(num_atoms=4, beta=2.0, cutoff=1.2)
    conf = jax.random.uniform(jax.random.PRNGKey(0), (4, 3)) * 3.0
    params = jnp.ones((4, 3))
    box = 3.0 * jnp.eye(3)
    lam = 0.0

    nonbonded_ref = nonbonded.to_reference()
    print(nonbonded_ref(conf, params, box, lam))  # OK
    nonbonded_ref_jit = jit(nonbonded_ref)
    print(nonbonded_ref_jit(conf, params, box, lam))  # Fails with `ConcretizationTypeError`
