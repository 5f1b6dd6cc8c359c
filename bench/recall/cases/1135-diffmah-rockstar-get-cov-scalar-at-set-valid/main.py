import jax.numpy as jnp

from diffmah_lite.rockstar_pdf_model import _get_cov_vmap

if __name__ == "__main__":
    n = 4
    args = [jnp.full(n, v) for v in (0.1, -0.25, -0.5, -0.65, 0.0, -0.13)]
    try:
        cov = _get_cov_vmap(*args)
        print("cov shape:", cov.shape)
    except AttributeError as exc:
        print("AttributeError", str(exc).splitlines()[0])
