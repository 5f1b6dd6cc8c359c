from gymnax_lite.environments.cartpole import CartPole


def make(env_id: str, **env_kwargs):
    """A JAX-version of OpenAI's env.make(env_name), built on gymnax's registry."""
    if env_id == "CartPole-v1":
        env = CartPole(**env_kwargs)
    else:
        raise ValueError("Environment ID is not registered.")
    return env, env.default_params
