import jax.numpy as jnp
from jax import jit

from jax_fdm_lite import closest_point_on_segment

if __name__ == "__main__":
    point_a = [1.0, 0.0, 0.0]
    point_b = [2.5, 0.0, 0.0]

    segment = tuple([jnp.array(point) for point in (point_a, point_b)])

    test_points = [[2.0, 1.0, 0.0],
                   [-1.0, 0.0, 0.0],
                   [5.0, -1.0, 0.0]]

    result_points = [[2.0, 0.0, 0.0],
                     [1.0, 0.0, 0.0],
                     [2.5, 0.0, 0.0]
                     ]

    for tpoint, rpoint in zip(test_points, result_points):
        cpoint = jit(closest_point_on_segment)(jnp.array(tpoint), segment)
        assert jnp.allclose(cpoint, jnp.array(rpoint)), f"got {cpoint} wanted {rpoint}"

    print("okay!")
