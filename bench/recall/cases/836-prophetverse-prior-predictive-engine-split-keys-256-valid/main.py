import jax
import jax.numpy as jnp
import numpyro
import numpyro.distributions as dist

from prophetverse_lite.engine import PriorPredictiveInferenceEngine


def model(y=None):
    trend = numpyro.sample("trend", dist.Normal(0.0, 1.0))
    numpyro.sample("obs", dist.Normal(trend, 1.0), obs=y)


if __name__ == "__main__":
    key = jax.random.PRNGKey(0)
    engine = PriorPredictiveInferenceEngine(num_samples=50, rng_key=key)
    engine.infer(model)
    trend = engine.posterior_samples_["trend"]
    predicted = engine.predict()["obs"]
    # with the same key, the noise of each predicted obs is the draw that gave its trend
    noise = predicted - trend
    print("obs noise equals the trend draw:", bool(jnp.allclose(noise, trend, atol=1e-5)))
