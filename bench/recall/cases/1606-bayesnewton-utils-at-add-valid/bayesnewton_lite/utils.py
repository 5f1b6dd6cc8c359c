import jax.numpy as np
import numpy as nnp
from jax import vmap
#from jax.ops import index_add, index, index_update
from jax.scipy.linalg import cholesky, cho_factor, cho_solve
from jax.lax import scan


def sum_natural_params_by_group(carry, inputs):
    ind_m, nat1_m, nat2_m = inputs
    nat1s, nat2s, count = carry
    #nat1s = index_add(nat1s, index[ind_m], nat1_m)
    #nat2s = index_add(nat2s, index[ind_m], nat2_m)
    #count = index_add(count, index[ind_m], 1.0)
    nat1s = nat1s.at[ind_m].add(nat1_m)
    nat2s = nat2s.at[ind_m].add(nat2_m)
    count = count.at[ind_m].add(1.0)
    return (nat1s, nat2s, count), 0.


def count_indices(carry, inputs):
    ind_m = inputs
    count = carry
    #count = index_add(count, index[ind_m], 1.0)
    count = count.at[ind_m].add(1.0)
    return count, 0.
