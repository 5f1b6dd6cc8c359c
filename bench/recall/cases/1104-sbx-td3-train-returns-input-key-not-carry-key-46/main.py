import jax
import jax.numpy as jnp
import numpy as np
import optax

from sbx_lite.common.type_aliases import ReplayBufferSamplesNp, RLTrainState
from sbx_lite.td3.policies import Actor, VectorCritic
from sbx_lite.td3.td3 import TD3

if __name__ == "__main__":
    obs_dim, act_dim, n = 3, 2, 8
    rng = np.random.default_rng(0)
    obs = jnp.zeros((1, obs_dim))
    actor, critic = Actor(act_dim), VectorCritic()
    k1, k2, k3 = jax.random.split(jax.random.PRNGKey(1), 3)
    actor_params = actor.init(k1, obs)
    qf_params = critic.init({"params": k2, "dropout": k3}, obs, jnp.zeros((1, act_dim)))
    actor_state = RLTrainState.create(apply_fn=actor.apply, params=actor_params, target_params=actor_params, tx=optax.adam(1e-3))
    qf_state = RLTrainState.create(apply_fn=critic.apply, params=qf_params, target_params=qf_params, tx=optax.adam(1e-3))
    model = TD3(actor_state, qf_state)
    data = ReplayBufferSamplesNp(
        rng.normal(size=(n, obs_dim)).astype(np.float32),
        rng.uniform(-1, 1, size=(n, act_dim)).astype(np.float32),
        rng.normal(size=(n, obs_dim)).astype(np.float32),
        np.zeros(n, np.float32),
        rng.normal(size=n).astype(np.float32),
    )
    key_before_learn = model.key
    model.train(data, gradient_steps=2)
    model.train(data, gradient_steps=2)
    print("key unchanged after train:", bool(np.allclose(key_before_learn, model.key)))
