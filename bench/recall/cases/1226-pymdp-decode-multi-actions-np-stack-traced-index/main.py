import jax
import jax.numpy as jnp
import jax.random as jr

from pymdp_lite.agent import Agent


@jax.jit
def act(agent, q_pi, key):
    # sample a flattened action per batch element and decode it into the original control factors
    action = jr.categorical(key, jnp.log(q_pi))[..., None]
    return agent.decode_multi_actions(action)


if __name__ == "__main__":
    # control factors [2, 3] with B_action_dependencies combined into one flattened factor of 6 actions
    agent = Agent(
        num_controls=[6],
        num_controls_multi=[2, 3],
        action_maps=[{"multi_dependency": [0, 1], "multi_dims": [2, 3]}],
        batch_size=1,
    )
    q_pi = jnp.full((1, 6), 1.0 / 6)
    try:
        print("multi-factor action:", act(agent, q_pi, jr.PRNGKey(0)))
    except jax.errors.TracerArrayConversionError as e:
        print("TracerArrayConversionError:", str(e).splitlines()[0])
