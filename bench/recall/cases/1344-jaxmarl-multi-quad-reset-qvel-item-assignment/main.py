import jax

from jaxmarl_lite.environments.mabrax.multi_quad_env import MultiQuadEnv

if __name__ == "__main__":
    env = MultiQuadEnv()
    try:
        state = jax.jit(env.reset)(jax.random.PRNGKey(0))
        print("reset:", state["qvel"])
    except TypeError as e:
        print(f"TypeError: {str(e).splitlines()[0][:70]}")
