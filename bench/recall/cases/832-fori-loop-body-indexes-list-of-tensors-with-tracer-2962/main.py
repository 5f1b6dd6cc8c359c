import numpy as onp
import jax.numpy as np
from jax import jit, lax, random


@jit
def trace(list_of_tensors):
    L = len(list_of_tensors)
    edge = np.ones((1))

    list_of_tensors, edge = lax.fori_loop(0, L, loop_body, (list_of_tensors, edge))

    return edge


def loop_body(i, args):
    L = len(args[0])
    edge = np.einsum('i,ij->j', args[1], args[0][i])

    return (args[0], edge)


if __name__ == "__main__":
    for i in range(5):
        key = random.PRNGKey(onp.random.randint(1,1000000))
        list_of_tensors = [random.normal(key, (1,2)), random.normal(key, (2,4)), random.normal(key, (4,8)), random.normal(key, (8,1))]

        print(trace(list_of_tensors))
