import jax.numpy as jnp

from colabdesign.shared.utils import clear_mem


def binder_hallucination(design_name, starting_pdb, chain, target_hotspot_residues, length, seed):
    # clear GPU memory for new trajectory
    clear_mem()
    return {"design_name": design_name, "length": length, "seq": jnp.zeros(length, dtype=jnp.int32)}
