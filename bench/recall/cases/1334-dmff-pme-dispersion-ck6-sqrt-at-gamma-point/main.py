import jax
import jax.numpy as jnp

from dmff_lite.admp.recip import Ck_6, generate_pme_recip

if __name__ == "__main__":
    K = 4
    pme_recip = generate_pme_recip(Ck_6, kappa=0.3, gamma=True, K1=K, K2=K, K3=K)
    box = jnp.eye(3) * 2.5
    S_k = jnp.cos(jnp.arange(K ** 3) * 0.37) + 1.0  # a structure factor on the mesh
    energy, dE_dbox = jax.value_and_grad(pme_recip)(box, S_k)
    print(f"energy finite: {bool(jnp.isfinite(energy))}")
    print(f"box gradient has NaN: {bool(jnp.any(jnp.isnan(dE_dbox)))}")
