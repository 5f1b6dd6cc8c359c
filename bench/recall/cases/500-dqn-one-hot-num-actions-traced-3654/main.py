import jax
import jax.numpy as jnp


@jax.jit
def train(replay_elements, num_actions):
    replay_action_one_hot = jax.nn.one_hot(replay_elements['action'], num_actions)
    q_values = replay_elements['q_values']
    replay_chosen_q = jnp.sum(q_values * replay_action_one_hot, axis=1)
    return jnp.mean(replay_chosen_q)


if __name__ == "__main__":
    replay_elements = {
        'action': jnp.array([0, 2, 1, 1]),
        'q_values': jnp.ones((4, 3)),
    }
    print(train(replay_elements, 3))
