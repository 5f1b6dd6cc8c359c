from typing import NamedTuple

import jax.numpy as jnp


class SurfaceFluxParameters(NamedTuple):
    fwind0: jnp.ndarray  # ratio of near-sfc wind to lowest-level wind
    fhum0: jnp.ndarray   # weight for near-sfc humidity extrapolation

    @classmethod
    def default(cls):
        return cls(fwind0=jnp.float64(0.95), fhum0=jnp.float64(0.5))
