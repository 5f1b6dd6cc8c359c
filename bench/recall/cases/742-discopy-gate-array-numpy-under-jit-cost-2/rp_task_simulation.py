from time import time

import jax
import jax.numpy as jnp
import numpy as np

from discopy_lite.quantum import Rx, Rz, Circuit

train_labels = jnp.array([1.0, 0.0])


def get_cost(unshaped_params):
    circuits = [
        Circuit([Rx(unshaped_params[0]), Rz(unshaped_params[1])]),
        Circuit([Rz(unshaped_params[2]), Rx(unshaped_params[0])]),
    ]
    preds = jnp.stack([jnp.abs(c.eval(jnp.array([1.0, 0.0]))[0]) ** 2 for c in circuits])
    return jnp.mean((preds - train_labels) ** 2)


get_cost_jit = jax.jit(get_cost)

if __name__ == "__main__":
    rand_unshaped_pars = jnp.array(np.random.default_rng(0).random(3))
    start = time()
    print('Cost: ', get_cost_jit(rand_unshaped_pars))
    print('Time taken for this iteration: ', time()-start)
