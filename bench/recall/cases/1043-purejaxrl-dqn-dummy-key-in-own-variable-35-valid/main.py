import jax
import jax.numpy as jnp

from purejaxrl_lite.dqn import make_train

config = {"NUM_ENVS": 4, "TOTAL_TIMESTEPS": 1000, "BUFFER_SIZE": 16}

if __name__ == "__main__":
    train = jax.jit(make_train(config))
    out0 = train(jax.random.PRNGKey(0))
    out1 = train(jax.random.PRNGKey(1))
    same = bool(jnp.array_equal(out0["network_params"]["w"], out1["network_params"]["w"]))
    print(f"same network init for seeds 0 and 1: {same}")
