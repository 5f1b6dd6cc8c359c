import jax.numpy as jnp

from jVMC_lite.mpi_wrapper import global_sum

if __name__ == "__main__":
    data = jnp.ones((1, 8, 3))
    for step in range(4):
        total = global_sum(data * step)
    print("sums:", total)
