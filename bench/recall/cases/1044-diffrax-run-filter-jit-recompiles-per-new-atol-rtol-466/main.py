import equinox as eqx
import jax
import jax.numpy as jnp


def vector_field(t, y, args):
    W1, W2 = args
    return jnp.tanh(y @ W1) @ W2


@eqx.filter_jit
def run_diffrax(hidden_dims, input_x, t_span, n_steps, solver_kwargs):
    # stand-in for diffrax.diffeqsolve(ODETerm(vector_field), method, t0, t1, dt0,
    # y0, stepsize_controller=PIDController(rtol=..., atol=...)): explicit Euler
    # whose step is shrunk by the tolerances
    key1, key2 = jax.random.split(jax.random.PRNGKey(0))
    W1 = jax.random.normal(key1, (input_x.shape[-1], hidden_dims)) * 0.1
    W2 = jax.random.normal(key2, (hidden_dims, input_x.shape[-1])) * 0.1
    t0, t1 = t_span
    dt = (t1 - t0) / n_steps * (1.0 - solver_kwargs["rtol"] - solver_kwargs["atol"])

    def body(i, y):
        return y + dt * vector_field(t0 + i * dt, y, (W1, W2))

    return jax.lax.fori_loop(0, n_steps, body, input_x)


if __name__ == "__main__":
    hidden_dims = 16
    input_x = jnp.ones((8, 4))
    # first time of atol=rtol=1e-5
    run_diffrax(hidden_dims, input_x, [0.0, 1.0], 100, {
        'atol': 1e-5,
        'rtol': 1e-5}).block_until_ready()
    # second time of atol=rtol=1e-5
    run_diffrax(hidden_dims, input_x, [0.0, 1.0], 100, {
        'atol': 1e-5,
        'rtol': 1e-5}).block_until_ready()
    # first time of atol=rtol=1e-4
    run_diffrax(hidden_dims, input_x, [0.0, 1.0], 100, {
        'atol': 1e-4,
        'rtol': 1e-4}).block_until_ready()
    # first time of atol=rtol=1e-3
    run_diffrax(hidden_dims, input_x, [0.0, 1.0], 100, {
        'atol': 1e-3,
        'rtol': 1e-3}).block_until_ready()
