import jax

from gymnax_lite.pendulum import params_pendulum, reset

if __name__ == "__main__":
    rng = jax.random.PRNGKey(0)
    obs, state = reset(rng, params_pendulum)
    print(obs)
