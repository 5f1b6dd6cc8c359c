import jax
import jax.numpy as jnp

from axlearn_lite.common.layers import VariationalNoise

if __name__ == "__main__":
    # as the commit's test_variational_noise_independence
    test_layer = VariationalNoise.default_config().set(vn_std=1.0).instantiate()
    params = {"weight1": jnp.zeros((100,)), "weight2": jnp.zeros((100,))}
    noisy_params = test_layer.apply(prng_key=jax.random.PRNGKey(42), params=params)
    noise1 = noisy_params["weight1"]
    noise2 = noisy_params["weight2"]
    print("same noise:", bool(jnp.array_equal(noise1, noise2)))
