import jax
import jax.numpy as jnp

jax.config.update("jax_enable_x64", True)


npart = 20

npair = npart * (npart - 1)
ip = jnp.empty(npair, dtype=int)
jp = jnp.empty(npair, dtype=int)
k = 0
for i in range(npart):
    for j in range(npart):
        if (i != j):
            ip = ip.at[k].set(i)
            jp = jp.at[k].set(j)
            k += 1

key = jax.random.PRNGKey(17)
key, key_input = jax.random.split(key)


@jax.jit
def broadcast_set(pf):
    Rho = jnp.zeros((npart+1, npart+1), dtype='complex128')
    Rho = Rho.at[ip, jp].set(pf)
    return Rho


if __name__ == "__main__":
    pf = jax.random.normal(key_input, shape=[npair])
    n = len(jax.make_jaxpr(broadcast_set.__wrapped__)(pf).eqns)
    print(broadcast_set(pf)[0, 1])
    print("unrolled:", n >= npair, n)
