import jax.numpy as jnp
import numpy as np

from system import A

nall = 3
nsub = 2
x = jnp.array(np.random.random((nall, )))
x2 = jnp.array(np.random.random((nsub, )))

if __name__ == "__main__":
    a = A(x)
    a2 = A(x2)
    before = a.x
    a.set_subsystem(jnp.arange(nsub), a2)
    print("unchanged:", bool((a.x == before).all()))
