import jax
import jax.numpy as jnp


def dssesolve(H, psi0, tsave, key, ntrajs=4):
    """Diffusive SSE, reduced: Euler-Maruyama steps between the save times.

    The save times are read as Python floats (one Python step per interval),
    so tsave must be concrete: static under jit.
    """
    ts = tuple(float(t) for t in tsave)
    psi = jnp.broadcast_to(psi0, (ntrajs,) + psi0.shape)
    saved = [psi]
    for t0, t1 in zip(ts[:-1], ts[1:]):
        key, subkey = jax.random.split(key)
        dw = jnp.sqrt(t1 - t0) * jax.random.normal(subkey, psi.shape)
        psi = psi - 1j * (t1 - t0) * psi @ H.T + 0.1 * dw
        psi = psi / jnp.linalg.norm(psi, axis=-1, keepdims=True)
        saved.append(psi)
    return jnp.stack(saved, axis=1)
