import jax.numpy as jnp

from jaxtronomy_lite.PointSource.point_source import PointSource

if __name__ == "__main__":
    point_source = PointSource(["LENSED_POSITION", "LENSED_POSITION"])
    kwargs_ps = [
        {"ra_image": jnp.array([1.1, -0.9]), "dec_image": jnp.array([0.2, -0.1])},
        {"ra_image": jnp.array([0.3, 0.5]), "dec_image": jnp.array([1.0, -1.2])},
    ]
    ra, dec, amp = point_source.point_source_list(kwargs_ps, [], k=1, with_amp=False)
    print("ra:", ra)
