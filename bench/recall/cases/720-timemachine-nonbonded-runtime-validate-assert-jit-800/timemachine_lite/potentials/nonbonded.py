import jax.numpy as jnp


def validate_coulomb_cutoff(cutoff, beta, threshold=1e-2):
    """check whether f(r) = erfc(beta * r) <= threshold at r = cutoff"""
    from jax.scipy.special import erfc

    return erfc(beta * cutoff) <= threshold


def nonbonded_v3(conf, params, box, lamb, charge_rescale_mask, beta, cutoff, runtime_validate=True):
    N = conf.shape[0]

    if runtime_validate:
        assert (box.diagonal() >= 2 * cutoff).all(), "box too small for cutoff"
        assert validate_coulomb_cutoff(cutoff, beta), f"erfc(beta * cutoff) too large"

    dij = conf[:, None, :] - conf[None, :, :]
    dij = dij - box.diagonal() * jnp.round(dij / box.diagonal())
    d2 = jnp.sum(dij**2, axis=-1) + jnp.eye(N)
    d = jnp.sqrt(d2)
    qi = params[:, 0]
    qij = qi[:, None] * qi[None, :] * charge_rescale_mask
    mask = (d < cutoff) & ~jnp.eye(N, dtype=bool)
    energy = jnp.where(mask, qij / d, 0.0)
    return 0.5 * jnp.sum(energy) * (1.0 - lamb)
