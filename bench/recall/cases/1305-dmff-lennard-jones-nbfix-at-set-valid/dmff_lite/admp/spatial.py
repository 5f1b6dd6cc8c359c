import jax.numpy as jnp
from jax import jit, vmap


@jit
def pbc_shift(drvecs, box, box_inv):
    '''
    Dealing with the pbc shifts of vectors
    '''
    unshifted_dsvecs = drvecs.dot(box_inv)
    dsvecs = unshifted_dsvecs - jnp.floor(unshifted_dsvecs + 0.5)
    return dsvecs.dot(box)

v_pbc_shift = vmap(pbc_shift, in_axes=(0, None, None), out_axes=0)
