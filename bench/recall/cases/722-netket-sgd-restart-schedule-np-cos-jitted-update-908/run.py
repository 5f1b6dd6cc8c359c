import numpy as np
from numpy import pi
import jax.numpy as jnp

import netket_lite as nk

η = 0.05


def schedule(n):
    restart=100
    return (1+np.cos(pi*(n%restart)/restart)) * η


def energy(params):
    return jnp.sum((params["w"] - 1.0) ** 2)


if __name__ == "__main__":
    op = nk.optimizer.Sgd(schedule)
    gs = nk.VMC(energy, op, {"w": jnp.zeros(3)})
    print("final energy:", gs.run(n_iter=10))
