import jax.numpy as jnp

from interpax_lite import Interpolator1D

if __name__ == "__main__":
    x = jnp.linspace(0, 2 * jnp.pi, 50)
    for k in range(1, 4):
        interp = Interpolator1D(x, jnp.sin(k * x), method="cubic")
        print("fx[0]:", float(interp.derivs["fx"][0]))
