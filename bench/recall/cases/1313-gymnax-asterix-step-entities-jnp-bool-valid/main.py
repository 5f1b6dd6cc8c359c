import jax

from gymnax_lite.environments.minatar.asterix import MinAsterix

if __name__ == "__main__":
    env = MinAsterix()
    params = env.default_params
    obs, state = env.reset(jax.random.PRNGKey(0), params)
    try:
        for t in range(3):
            obs, state, reward, done, info = env.step(jax.random.PRNGKey(t + 1), state, 1, params)
        print(f"stepped: time {int(state.time)}")
    except jax.errors.TracerBoolConversionError as e:
        print(f"{type(e).__name__}: {str(e).splitlines()[0][:90]}")
