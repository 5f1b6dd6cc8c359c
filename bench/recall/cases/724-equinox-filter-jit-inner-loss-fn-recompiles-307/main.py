import equinox as eqx
import jax
import jax.numpy as jnp
import optax
from jaxtyping import Array, PyTree
from optax import GradientTransformation


class Policy(eqx.Module):
    mlp: eqx.nn.MLP

    def __init__(self, in_size, out_size, key):
        self.mlp = eqx.nn.MLP(in_size, out_size, width_size=16, depth=1, key=key)

    def __call__(self, x):
        return self.mlp(x)


def get_future_rewards(rewards: Array, gamma: float = 0.99) -> Array:
    def step(carry, r):
        carry = r + gamma * carry
        return carry, carry

    _, returns = jax.lax.scan(step, 0.0, rewards, reverse=True)
    return returns


def policy_gradient_loss(logits_t, a_t, adv_t, w_t):
    log_pi = jax.nn.log_softmax(logits_t)
    log_pi_a = jnp.take_along_axis(log_pi, a_t[:, None], axis=-1)[:, 0]
    return -jnp.mean(log_pi_a * jax.lax.stop_gradient(adv_t) * w_t)


# eqx.filter_jit <<< This makes the code go 🚀🚀🚀
def train(
    t_optim: GradientTransformation,
    t_opt_state: PyTree,
    t_params: PyTree,
    t_eps_obs: Array,
    t_eps_actions: Array,
    t_eps_rewards: Array,
):
    @eqx.filter_jit  # <<< slow :(
    def loss_fn(
        l_model: PyTree,
        l_states: Array,
        l_rewards: Array,
        l_actions: Array,
    ) -> Array:
        logits = jax.vmap(l_model)(l_states)
        advantages = get_future_rewards(l_rewards)

        actions = l_actions.reshape(-1)

        l_loss_value = policy_gradient_loss(
            logits_t=logits,
            a_t=actions,
            adv_t=advantages,
            w_t=jnp.ones_like(advantages),
        )

        return l_loss_value

    loss, grads = eqx.filter_value_and_grad(loss_fn)(
        t_params, t_eps_obs, t_eps_rewards, t_eps_actions
    )
    updates, t_opt_state = t_optim.update(grads, t_opt_state, t_params)
    t_params = eqx.apply_updates(t_params, updates)
    return t_params, t_opt_state, loss


if __name__ == "__main__":
    key = jax.random.PRNGKey(0)
    model = Policy(4, 2, key)
    optim = optax.adam(1e-3)
    opt_state = optim.init(eqx.filter(model, eqx.is_array))
    obs = jnp.ones((8, 4))
    actions = jnp.zeros((8,), dtype=jnp.int32)
    rewards = jnp.ones((8,))
    for episode in range(4):
        model, opt_state, loss = train(optim, opt_state, model, obs, actions, rewards)
    print("loss:", loss)
