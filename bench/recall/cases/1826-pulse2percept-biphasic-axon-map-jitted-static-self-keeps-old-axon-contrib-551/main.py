import jax.numpy as jnp

from pulse2percept_lite.models import BiphasicAxonMapSpatial

eparams = jnp.array([[1.0, 1.0, 1.0], [0.5, 2.0, 1.0]])
x = jnp.array([0.0, 300.0])
y = jnp.array([0.0, 0.0])

if __name__ == "__main__":
    model = BiphasicAxonMapSpatial(axlambda=500.0)._build()
    before = model._predict_spatial_jax(eparams, x, y)

    # rebuild with a different lambda
    model.axlambda = 50.0
    model._build()
    rebuilt = model._predict_spatial_jax(eparams, x, y)

    fresh = BiphasicAxonMapSpatial(axlambda=50.0)._build()._predict_spatial_jax(eparams, x, y)
    print("stale:", bool(jnp.allclose(rebuilt, before)) and not bool(jnp.allclose(rebuilt, fresh)))
