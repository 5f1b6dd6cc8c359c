import jax
import chex
import optax
import numpy as np
from jax import numpy as jnp
from flax.core.frozen_dict import FrozenDict
from flax.training.train_state import TrainState

from purerl_lite.algos.algorithm import Algorithm


class DQNTrainState(TrainState):
    target_params: FrozenDict
    global_step: int
    rng: chex.PRNGKey

    def get_rng(self):
        rng, rng_new = jax.random.split(self.rng)
        return self.replace(rng=rng), rng_new


class DQN(Algorithm):
    @classmethod
    def train(cls, config, rng=None, train_state=None):
        if train_state is None and rng is None:
            raise ValueError("Either train_state or rng must be provided")

        ts = train_state or cls.initialize_train_state(config, rng)

        def eval_iteration(ts, unused):
            # Run a few trainig iterations
            ts = jax.lax.fori_loop(
                0,
                np.ceil(config.eval_freq / config.num_envs).astype(int),
                lambda _, ts: cls.train_iteration(config, ts),
                ts,
            )
            return ts, config.epsilon_schedule(ts.global_step)

        ts, evaluation = jax.lax.scan(
            eval_iteration,
            ts,
            None,
            np.ceil(config.total_timesteps / config.eval_freq).astype(int),
        )
        return ts, evaluation

    @classmethod
    def initialize_train_state(cls, config, rng):
        rng, rng_agent = jax.random.split(rng)
        q_params = config.agent.init(rng_agent, jnp.zeros((1, config.obs_size)))
        q_target_params = q_params
        tx = optax.chain(
            optax.clip_by_global_norm(config.max_grad_norm),
            optax.adam(config.learning_rate, eps=1e-5),
        )
        train_state = DQNTrainState.create(
            apply_fn=config.agent.apply,
            params=q_params,
            target_params=q_target_params,
            tx=tx,
            global_step=0,
            rng=rng,
        )
        return train_state

    @classmethod
    def train_iteration(cls, config, ts):
        ts, rng = ts.get_rng()
        obs = jax.random.normal(rng, (config.num_envs, config.obs_size))

        def loss_fn(params):
            q = ts.apply_fn(params, obs)
            return jnp.mean(q**2)

        grads = jax.grad(loss_fn)(ts.params)
        ts = ts.apply_gradients(grads=grads)
        return ts.replace(global_step=ts.global_step + config.num_envs)
