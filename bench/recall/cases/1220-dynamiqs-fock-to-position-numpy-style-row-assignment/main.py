import jax.numpy as jnp

from dynamiqs_lite.utils.wigners import ket_in_position_basis

if __name__ == "__main__":
    n = 8
    psi = jnp.zeros((n, 1), dtype=jnp.complex64).at[1, 0].set(1.0)  # Fock state |1>
    xvec = jnp.linspace(-5.0, 5.0, 101)
    try:
        psi_x = ket_in_position_basis(psi, xvec)
        norm = jnp.sum(jnp.abs(psi_x) ** 2) * (xvec[1] - xvec[0]) * 2.0 / jnp.sqrt(2)
        print(f"position wavefunction norm: {float(norm):.3f}")
    except TypeError as e:
        print("TypeError:", str(e).splitlines()[0])
