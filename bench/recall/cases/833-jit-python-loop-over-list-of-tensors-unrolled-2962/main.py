import numpy as onp
import jax
import jax.numpy as np
from jax import jit, random


@jit
def trace(list_of_tensors):
    L = len(list_of_tensors)
    edge = np.ones((1))

    for i in range(L):
        edge = np.einsum('i,ij->j', edge, list_of_tensors[i])

    return edge


if __name__ == "__main__":
    for i in range(5):
        key = random.PRNGKey(onp.random.randint(1,1000000))
        list_of_tensors = [random.normal(key, (1,2)), random.normal(key, (2,4)), random.normal(key, (4,8)), random.normal(key, (8,1))]

        print(trace(list_of_tensors))

    # a longer chain: the traced program grows with the length of the list
    long_list = [random.normal(key, (1, 1))] * 200
    n_eqns = len(jax.make_jaxpr(trace.__wrapped__)(long_list).eqns)
    print("equations for 200 tensors:", n_eqns)
    print("unrolled over the list:", n_eqns >= 200)
