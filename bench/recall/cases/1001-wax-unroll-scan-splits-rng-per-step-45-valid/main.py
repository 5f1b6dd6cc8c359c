import haiku as hk
import jax
import jax.numpy as jnp

from wax_lite.unroll import unroll_transform_with_state


def noisy_step(x):
    # a module drawing fresh randomness at every time step (dropout here)
    return hk.dropout(hk.next_rng_key(), 0.5, x)


if __name__ == "__main__":
    xs = jnp.ones((4, 16))
    model = unroll_transform_with_state(noisy_step)
    rng = jax.random.PRNGKey(42)
    params, state = model.init(rng, xs)
    outputs, _ = model.apply(params, state, rng, xs)
    same = all(bool(jnp.array_equal(outputs[0], outputs[t])) for t in range(1, 4))
    print(f"same dropout mask at every step: {same}")
