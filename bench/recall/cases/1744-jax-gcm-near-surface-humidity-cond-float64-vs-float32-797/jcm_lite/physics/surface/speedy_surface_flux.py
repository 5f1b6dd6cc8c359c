import jax
import jax.numpy as jnp

from jcm_lite.physics.speedy.params import SurfaceFluxParameters


def rel_hum_to_spec_hum(ta, ps, sig, rh):
    """Specific humidity [g/kg] at relative humidity rh (Tetens saturation)."""
    e0, c1, t0 = 6.108e-3, 17.269, 273.16
    qsat = 622.0 * e0 * jnp.exp(c1 * (ta - t0) / (ta - 35.86)) / (ps * sig)
    return rh * qsat, qsat


def _near_surface_humidity(t_near, psa, rh_bottom, q_bottom, sfp: SurfaceFluxParameters):
    """Near-surface specific humidity [g/kg]."""
    return jax.lax.cond(
        sfp.fhum0 > 0.0,
        lambda _: (sfp.fhum0 * rel_hum_to_spec_hum(t_near, psa, 1.0, rh_bottom)[0]
                   + (1.0 - sfp.fhum0) * q_bottom),
        lambda _: q_bottom,
        operand=None,
    )


@jax.jit
def get_surface_fluxes(t_near, psa, rh_bottom, q_bottom, sfp: SurfaceFluxParameters):
    q_sea = _near_surface_humidity(t_near, psa, rh_bottom, q_bottom, sfp)
    return q_sea
