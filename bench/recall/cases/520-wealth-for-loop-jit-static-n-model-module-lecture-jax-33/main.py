import jax
import jax.numpy as jnp

from model import create_wealth_model, update_states_jax

# Using JAX and for loop


def wealth_time_series_for_loop_jax(w_0, n, wdy, size, rand_seed=1):
    """
    Generate a single time series of length n for wealth given
    initial value w_0.

    * This implementation uses a `for` loop.
    """
    rand_key = jax.random.PRNGKey(rand_seed)
    rand_key, *subkey = jax.random.split(rand_key, n)

    w_0 = jax.device_put(w_0).reshape(size)

    z = wdy.z_mean + jnp.sqrt(wdy.z_var) * jax.random.normal(rand_key, shape=size)
    w = [w_0]
    for t in range(n-1):
        w_, z = update_states_jax((w[t], z), wdy, size, subkey[t])
        w.append(w_)
    return jnp.array(w)


# Create the jit function
wealth_time_series_for_loop_jax = jax.jit(wealth_time_series_for_loop_jax,
                                          static_argnums=(1,3,))


if __name__ == "__main__":
    wdy = create_wealth_model()  # default model
    ts_length = 20
    size = (1,)
    jaxpr = jax.make_jaxpr(wealth_time_series_for_loop_jax, static_argnums=(1, 3))(
        wdy.y_mean, ts_length, wdy, size)
    n_eqns = len(jaxpr.eqns[0].params["jaxpr"].jaxpr.eqns)
    print("equations:", n_eqns)
    print("unrolled:", n_eqns > 5 * ts_length)
