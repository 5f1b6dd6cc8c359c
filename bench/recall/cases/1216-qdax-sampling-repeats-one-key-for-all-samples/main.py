import jax
import jax.numpy as jnp

from qdax_lite.utils.sampling import sampling


def noisy_rastrigin_scoring(params, random_key):
    """Rastrigin fitness observed with noise; the first two genes are the descriptor."""
    random_key, subkey = jax.random.split(random_key)
    x = params * 10 - 5
    f = -(10 * x.shape[-1] + jnp.sum(x**2 - 10 * jnp.cos(2 * jnp.pi * x), axis=-1))
    f = f + 0.5 * jax.random.normal(subkey, shape=f.shape)
    return f, params[:, :2], {"noisy_fitness": f}, random_key


if __name__ == "__main__":
    key = jax.random.PRNGKey(0)
    params = jax.random.uniform(jax.random.key(1), (5, 4))
    fitnesses, descriptors, extra_scores, key = sampling(
        params, key, noisy_rastrigin_scoring, num_samples=8
    )
    samples = extra_scores["noisy_fitness"]  # (population, num_samples)
    same = bool(jnp.all(samples == samples[:, :1]))
    print(f"fitness samples {samples.shape}, all samples of a policy identical: {same}")
