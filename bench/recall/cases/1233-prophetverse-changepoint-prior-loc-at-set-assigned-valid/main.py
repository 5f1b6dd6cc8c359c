import jax.numpy as jnp

from prophetverse_lite.effects.trend.piecewise import PiecewiseLinearTrend

if __name__ == "__main__":
    # two series with 4 and 3 changepoints; the first changepoint coefficient's prior
    # should be centred on each series' suggested global rate
    trend = PiecewiseLinearTrend(n_changepoint_per_series=[4, 3], changepoint_prior_scale=0.01)
    global_rates = jnp.array([0.3, -0.2])
    loc, scale = trend._get_changepoint_prior_vectors(global_rates=global_rates)
    starts = jnp.array([loc[0], loc[4]])
    print("prior loc:", loc, "starts at the global rates:", bool(jnp.allclose(starts, global_rates)))
