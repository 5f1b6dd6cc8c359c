import jax
import jax.numpy as jnp

import tornadox_lite


def f(t, y):
    return -y


def df(t, y):
    return -jnp.eye(y.shape[0])


def df_diagonal(t, y):
    return -jnp.ones(y.shape[0])


def init(f, df, y0, t0, num_derivatives):
    # y' = -y: the k-th derivative is (-1)^k y0
    derivs = jnp.stack([(-1.0) ** k * y0 for k in range(num_derivatives + 1)])
    return derivs, jnp.zeros((num_derivatives + 1, num_derivatives + 1))


if __name__ == "__main__":
    solver = tornadox_lite.enkf.EnK1(num_derivatives=2, ensemble_size=5,
                                     prng_key=jax.random.PRNGKey(1),
                                     initialization=init)
    t0, tmax, y0 = 0.0, 1.0, jnp.array([1.0, 2.0])
    state = solver.initialize(f, t0, tmax, y0, df, df_diagonal)
    for _ in range(3):
        state, info = solver.attempt_step(state, 0.1, f, t0, tmax, y0, df, df_diagonal)
    print("t:", float(state.t))
    print("key is tracer:", isinstance(solver.prng_key, jax.core.Tracer))
