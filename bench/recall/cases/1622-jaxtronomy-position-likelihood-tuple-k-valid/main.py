import jax.numpy as jnp

from jaxtronomy_lite.LensModel.lens_model import LensModel
from jaxtronomy_lite.PointSource.point_source import PointSource
from jaxtronomy_lite.Sampling.Likelihoods.position_likelihood import PositionLikelihood

if __name__ == "__main__":
    lens_model = LensModel(["SIS", "SIS"])
    point_source = PointSource(
        ["LENSED_POSITION"],
        lens_model=lens_model,
        index_lens_model_list=[[0], [0, 1]],
        point_source_frame_list=[[0, 1]],
    )
    likelihood = PositionLikelihood(point_source)
    kwargs_lens = [
        {"theta_E": 1.0, "center_x": 0.0, "center_y": 0.0},
        {"theta_E": 0.1, "center_x": 0.5, "center_y": 0.0},
    ]
    kwargs_ps = [{"ra_image": jnp.array([1.1, -0.9]), "dec_image": jnp.array([0.2, -0.1])}]
    try:
        logL = likelihood.source_position_likelihood(kwargs_lens, kwargs_ps, sigma=0.1)
        print("logL:", round(float(logL), 3))
    except ValueError as e:
        print("ValueError:", str(e).splitlines()[0])
