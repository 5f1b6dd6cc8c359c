import jax
import jax.numpy as jnp

import dynamiqs_lite as dq

H = jnp.array([[0.0, 1.0], [1.0, 0.0]], dtype=jnp.complex64)
psi0 = jnp.array([1.0, 0.0], dtype=jnp.complex64)
tsave = jnp.linspace(0.0, 1.0, 11)

# jit compile with tsave marked static
jitted_dssesolve = jax.jit(dq.dssesolve, static_argnames=("tsave",))

if __name__ == "__main__":
    try:
        states = jitted_dssesolve(H, psi0, tsave=tsave, key=jax.random.key(0))
        print("solved:", states.shape)
    except ValueError as e:
        print("ValueError:", str(e).splitlines()[0])
