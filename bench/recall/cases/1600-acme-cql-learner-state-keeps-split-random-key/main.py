import jax
import jax.numpy as jnp
import optax

from acme_lite.agents.jax import cql

if __name__ == "__main__":
    jax.config.update("jax_debug_key_reuse", True)
    networks = cql.make_networks(obs_size=3, action_size=2)
    try:
        learner = cql.CQLLearner(networks, jax.random.key(0),
                                 optax.adam(1e-3), optax.adam(1e-3))
        metrics = learner.step(jnp.ones((4, 3)))
        print("actions:", metrics["actions"].shape)
    except Exception as e:  # KeyReuseError
        print(f"{type(e).__name__}: {str(e).splitlines()[0]}")
