import jax
import jax.numpy as jnp

from dynamiqs_lite import wigner

if __name__ == '__main__':
    psi = jnp.zeros((4, 1), dtype=jnp.complex64).at[1, 0].set(1.0)  # fock(4, 1)
    try:
        xvec, yvec, w = jax.jit(wigner, static_argnames=('npixels',))(psi, npixels=21)
        print('wigner:', w.shape, float(w.min()))
    except Exception as e:
        print(f'{type(e).__name__}: {str(e).splitlines()[0][:80]}')
