import jax
import jax.numpy as jnp

from jaxmarl_lite.environments.mabrax.multi_quad_env import MultiQuadEnv, PipelineState, State

if __name__ == "__main__":
    env = MultiQuadEnv()
    ps = PipelineState(time=jnp.asarray(0.0), xpos=jnp.zeros((3, 3)), cvel=jnp.zeros((3, 6)))
    state = State(pipeline_state=ps, obs=jnp.zeros(6), reward=jnp.asarray(0.0), done=jnp.asarray(0.0))
    step = jax.jit(env.step)
    try:
        for _ in range(3):
            state = step(state, jnp.full((8,), 0.2))
        print(f"stepped: reward {float(state.reward):.3f}")
    except jax.errors.ConcretizationTypeError as e:
        print(f"{type(e).__name__}: {str(e).splitlines()[0][:70]}")
