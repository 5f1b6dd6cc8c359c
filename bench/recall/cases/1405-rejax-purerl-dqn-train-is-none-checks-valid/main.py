import jax
from flax import linen as nn

from purerl_lite.algos import DQN, DQNConfig

if __name__ == "__main__":
    config = DQNConfig(
        gamma=0.99, max_grad_norm=10.0, learning_rate=1e-3, eps_start=1.0,
        eps_end=0.05, total_timesteps=64, eval_freq=16, agent=nn.Dense(2),
        obs_size=4, exploration_fraction=0.5, num_envs=4,
    )
    train_fn = jax.jit(DQN.train)
    try:
        ts, evaluation = train_fn(config, jax.random.PRNGKey(0))
        print("trained:", int(ts.global_step), evaluation)
    except Exception as e:
        print(f"{type(e).__name__}: {str(e).splitlines()[0][:80]}")
