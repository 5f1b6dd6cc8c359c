import numpy as onp
import jax.numpy as jnp
import functools

import jax
from jax.example_libraries import optimizers

from timemachine_lite.potentials import bonded

opt_init, opt_update, get_params = optimizers.sgd(5e-2)

x0 = onp.array([
    [1.0, 0.2, 3.3], # H
    [-0.5,-1.1,-0.9], # C
    [3.4, 5.5, 0.2], # H
], dtype=onp.float32)

param_idxs = onp.array([
    [0,1],
    [1,2],
], dtype=onp.int32)

bond_idxs = onp.array([
    [0,1],
    [1,2]
], dtype=onp.int32)


def minimize_structure(test_params):

    energy_fn = functools.partial(
        bonded.harmonic_bond,
        params=test_params,
        box=None,
        param_idxs=param_idxs,
        bond_idxs=bond_idxs)

    grad_fn = jax.jit(jax.grad(energy_fn, argnums=(0,)))
    opt_state = opt_init(x0)
    # minimize geometries
    for i in range(75):
        g = grad_fn(get_params(opt_state))[0]
        opt_state = opt_update(i, g, opt_state)

    x_final = get_params(opt_state)
    test_b0 = jnp.linalg.norm(x_final[1] - x_final[0])
    test_b1 = jnp.linalg.norm(x_final[2] - x_final[1])

    return test_b0, test_b1


# ground-truth real bond lengths
ib0, ib1 = 1.0, 2.0


def loss(test_params):
    t0, t1 = minimize_structure(test_params)
    loss = (t0 - ib0)**2 + (t1 - ib1)**2
    return loss
