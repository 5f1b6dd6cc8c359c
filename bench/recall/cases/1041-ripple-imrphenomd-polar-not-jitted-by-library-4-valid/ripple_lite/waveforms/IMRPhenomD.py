import jax.numpy as jnp

Array = jnp.ndarray


def gen_IMRPhenomD(f: Array, params: Array):
    """A stand-in for the PhenomD amplitude and phase (inspiral power laws only)."""
    Mchirp, eta, chi1, chi2, D, tc, phic = params[:7]
    M_s = Mchirp * eta ** (-3 / 5) * 4.925491025543576e-06
    Amp = Mchirp ** (5 / 6) / D * f ** (-7 / 6)
    Psi = 2 * jnp.pi * f * tc - phic + 3 / 128 / eta * (jnp.pi * M_s * f) ** (-5 / 3)
    return Amp * jnp.exp(-1j * Psi)


def gen_IMRPhenomD_polar(f: Array, params: Array):
    """
    Generate PhenomD frequency domain waveform following 1508.07253.
    vars array contains both intrinsic and extrinsic variables
    theta = [Mchirp, eta, chi1, chi2, D, tc, phic, inclination, polarization_angle]

    Returns:
    --------
      hp (array): Strain of the plus polarization
      hc (array): Strain of the cross polarization
    """
    l, psi = params[7], params[8]
    h0 = gen_IMRPhenomD(f, params)

    hp = h0 * (1 / 2 * (1 + jnp.cos(l) ** 2) * jnp.cos(2 * psi))
    hc = h0 * jnp.cos(l) * jnp.sin(2 * psi)

    return hp, hc
