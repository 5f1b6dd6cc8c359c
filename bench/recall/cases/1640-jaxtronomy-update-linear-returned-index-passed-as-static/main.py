import jax.numpy as jnp

from jaxtronomy_lite.ImSim.image_linear_solve import ImageLinearFit

if __name__ == "__main__":
    fit = ImageLinearFit(["SERSIC"], ["GAUSSIAN", "MULTI_GAUSSIAN"])
    param = jnp.array([1.0, 2.0, 3.0, 4.0])
    kwargs_source = [{"amp": 0.0}]
    kwargs_lens_light = [{"amp": 0.0}, {"amp": jnp.zeros(2), "sigma": [0.1, 0.2]}]
    try:
        _, kwargs_source, kwargs_lens_light, _ = fit.update_linear_kwargs(
            param, [], kwargs_source, kwargs_lens_light, []
        )
        print("lens light amps:", kwargs_lens_light[1]["amp"])
    except Exception as e:
        print(f"{type(e).__name__}: {str(e).splitlines()[0]}")
