from functools import partial

import jax
import jax.numpy as jnp
from jax import jit

has_jax = True


def cond_jit(fn, static_argnums=None):
    """ Conditional decorator for jax jit"""
    if has_jax:
        if static_argnums is None:
            return jit(fn)
        else:
            return jit(fn, static_argnums=static_argnums)
    else:
        return fn


class BiphasicAxonMapSpatial:
    """BiphasicAxonMapSpatial of [Granley2021], reduced to the jax prediction path."""

    def __init__(self, rho=200.0, axlambda=500.0, thresh_percept=0.0, engine='jax'):
        self.rho = rho
        self.axlambda = axlambda
        self.thresh_percept = thresh_percept
        self.engine = engine

    def calc_axon_sensitivities(self):
        """Stand-in for AxonMapSpatial: (x, y, sensitivity) of 6 segments per point."""
        pts = jnp.linspace(-500.0, 500.0, 9)
        dist = jnp.linspace(0.0, 1000.0, 6)
        x = pts[:, None] + dist[None, :]
        y = jnp.zeros_like(x)
        sens = jnp.broadcast_to(jnp.exp(-dist / self.axlambda), x.shape)
        return jnp.stack([x, y, sens], axis=-1)

    def _build(self):
        self.axon_contrib = self.calc_axon_sensitivities()
        if self.engine == 'jax':
            # Clear previously cached functions
            self._predict_spatial_jax = jit(self._predict_spatial_jax)
            # Cache axon_contrib for fast access later
            self.axon_contrib = jax.device_put(
                jnp.array(self.axon_contrib), jax.devices()[0])
        return self

    def predict_one_point_jax(self, axon, eparams, x, y, rho):
        """ Predicts the brightness contribution from each axon segment for each pixel"""
        d2_el = (axon[:, 0, None] - x)**2 + (axon[:, 1, None] - y)**2
        intensities = eparams[:, 0] * jnp.exp(-d2_el / (2. * rho**2 * eparams[:, 1])) * (
            axon[:, 2, None] ** (1./eparams[:, 2]))
        return jnp.sum(intensities, axis=1)

    @partial(cond_jit, static_argnums=[0])
    def biphasic_axon_map_jax(self, eparams, x, y, axon_segments, rho, thresh_percept):
        """ Predicts the spatial response of BiphasicAxonMapModel using Jax"""
        I = jnp.max(jax.vmap(self.predict_one_point_jax, in_axes=[0, None, None, None, None])(
            axon_segments,
            eparams, x, y,
            rho), axis=1)
        I = (I > thresh_percept) * I
        return I

    @partial(cond_jit, static_argnums=[0])
    def _predict_spatial_jax(self, elec_params, x, y):
        """Electrode effects (brightness, size, streak) to a flattened percept."""
        eparams = elec_params
        resp = self.biphasic_axon_map_jax(eparams, x, y,
                                          self.axon_contrib,
                                          self.rho,
                                          self.thresh_percept)
        return resp
