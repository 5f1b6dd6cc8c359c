import logging

import jax
import jax.numpy as jnp

logging.basicConfig(level=logging.INFO, format="[%(levelname)s]: %(message)s")


def make_train(config):
    def train(rng):
        def _update_step(runner_state, unused):
            params, rng = runner_state
            rng, _rng = jax.random.split(rng)
            obs = jax.random.normal(_rng, (config["NUM_ENVS"], 2))
            value_loss = jnp.mean((obs @ params) ** 2, axis=-1)
            total_loss = (value_loss, (value_loss, value_loss))

            def _log_loss(total_loss):
                total_loss_mean = jnp.mean(total_loss[0])
                jax.debug.print("[INFO]: {}", total_loss_mean)

            _log_loss(total_loss)
            params = params - 0.1 * params
            return (params, rng), total_loss[0]

        runner_state = (jnp.ones((2,)), rng)
        runner_state, metric = jax.lax.scan(
            _update_step, runner_state, None, config["NUM_UPDATES"]
        )
        return {"runner_state": runner_state, "metrics": metric}

    return train


if __name__ == "__main__":
    config = {"NUM_ENVS": 320, "NUM_UPDATES": 3}
    train_jit = jax.jit(make_train(config))
    out = train_jit(jax.random.PRNGKey(0))
    print("updates:", out["metrics"].shape[0])
