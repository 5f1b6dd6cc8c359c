import jax
import jax.numpy as jnp

from pymdp_lite import control

if __name__ == "__main__":
    num_controls = [3, 3]
    policies = control.construct_policies(num_controls)
    q_pi = jnp.ones(len(policies)) / len(policies)  # every policy equally likely

    keys = jax.random.split(jax.random.PRNGKey(0), 200)
    actions = jax.vmap(
        lambda k: control.sample_action(
            policies, num_controls, q_pi, action_selection="stochastic", alpha=1.0, rng_key=k
        )
    )(keys)
    print("first actions:", actions[:5].tolist())
    print("factors always pick the same action:", bool(jnp.all(actions[:, 0] == actions[:, 1])))
