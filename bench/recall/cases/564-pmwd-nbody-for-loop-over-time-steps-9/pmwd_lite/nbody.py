import jax.numpy as jnp


def force(a, ptcl, cosmo, conf):
    """Force (a soft pull towards the centre of mass stands in for gravity)."""
    disp, vel, _ = ptcl
    acc = -cosmo * (disp - disp.mean(axis=0)) / a
    return disp, vel, acc


def kick(a_prev, a_next, ptcl):
    disp, vel, acc = ptcl
    return disp, vel + acc * (a_next - a_prev), acc


def drift(a_prev, a_next, ptcl):
    disp, vel, acc = ptcl
    return disp + vel * (a_next - a_prev), vel, acc


def nbody_step(a_prev, a_next, ptcl, obsvbl, cosmo, conf):
    # leapfrog
    a_half = 0.5 * (a_prev + a_next)
    ptcl = kick(a_prev, a_half, ptcl)
    ptcl = drift(a_prev, a_next, ptcl)
    ptcl = force(a_next, ptcl, cosmo, conf)
    ptcl = kick(a_half, a_next, ptcl)
    return ptcl, obsvbl


def nbody(ptcl, obsvbl, cosmo, conf, reverse=False):
    """N-body time integration."""
    a_nbody = conf.a_nbody[::-1] if reverse else conf.a_nbody

    ptcl = force(a_nbody[0], ptcl, cosmo, conf)
    for a_prev, a_next in zip(a_nbody[:-1], a_nbody[1:]):
        ptcl, obsvbl = nbody_step(a_prev, a_next, ptcl, obsvbl, cosmo, conf)
    return ptcl, obsvbl
