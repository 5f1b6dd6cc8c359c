import jax
import jax.numpy as jnp

from adept_lite._vlasov1d.helpers import _initialize_distribution_


def kinetic_energy(T0):
    f, vax = _initialize_distribution_(nx=4, nv=64, v0=0.0, m=2.0, T0=T0)
    dv = vax[1] - vax[0]
    return jnp.sum(f * vax[None, :] ** 2) * dv / 4


if __name__ == "__main__":
    print(f"energy: {float(kinetic_energy(1.0)):.4f}")
    try:
        dE_dT = jax.grad(kinetic_energy)(1.0)
        print(f"dE/dT0: {float(dE_dT):.4f}")
    except jax.errors.TracerArrayConversionError as e:
        print(f"TracerArrayConversionError: {str(e).splitlines()[0][:70]}")
