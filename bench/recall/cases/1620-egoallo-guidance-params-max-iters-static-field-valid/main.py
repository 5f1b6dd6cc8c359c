import jax.numpy as jnp

from egoallo_lite.guidance_optimizer_jax import JaxGuidanceParams, _optimize_vmapped

if __name__ == "__main__":
    body_rotmats = jnp.linspace(0.0, 1.0, 12).reshape(2, 6)
    guidance_params = JaxGuidanceParams.defaults("no_hands", "inner")
    try:
        solution, costs = _optimize_vmapped(body_rotmats, guidance_params, verbose=False)
        print("costs:", costs.shape)
    except TypeError as e:
        print("TypeError:", str(e).splitlines()[0])
