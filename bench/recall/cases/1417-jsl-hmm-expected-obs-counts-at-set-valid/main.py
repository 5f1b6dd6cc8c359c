import jax
import jax.numpy as jnp
from jax import vmap

if __name__ == "__main__":
    try:
        from jsl_lite.hmm.hmm_lib import compute_expected_obs_counts_jax

        n_states, n_obs = 2, 3
        gamma = jax.nn.softmax(jax.random.normal(jax.random.PRNGKey(0), (4, 5, n_states)))
        observations = jnp.array([[0, 1, 2, 1, 0]] * 4)
        obs_counts = vmap(compute_expected_obs_counts_jax, in_axes=(0, 0, None, None))(gamma, observations, n_states, n_obs)
        print("obs counts:", obs_counts.sum(axis=0))
    except Exception as e:
        print(f"{type(e).__name__}: {e}")
