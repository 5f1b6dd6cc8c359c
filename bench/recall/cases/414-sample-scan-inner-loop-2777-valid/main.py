import functools
import jax
import jax.numpy as jnp

num_obs = 8


@jax.jit
def inner_loop(key, ra, rb):
    gate_shape = (num_obs, 1, 1, 1)
    key, shard = jax.random.split(key)

    gate_forward = jax.random.uniform(
        shard, gate_shape, dtype=jnp.float32, minval=0.0, maxval=1.0)

    gate_forward = gate_forward.reshape([-1, 1])
    new_ra = 0.5 * (ra + gate_forward * ra + (1 - gate_forward) * rb)
    new_rb = 0.5 * (rb + gate_forward * ra + (1 - gate_forward) * rb)
    ra = new_ra
    rb = new_rb
    return key, ra, rb


@functools.partial(jax.jit, static_argnums=[1])
def sample(key, n):

    ra = jnp.array([[1.0, 0.0] for _ in range(num_obs)])
    rb = jnp.array([[0.0, 1.0] for _ in range(num_obs)])

    (key, ra, rb), () = jax.lax.scan(
        lambda c, _: (inner_loop(*c), ()),
        (key, ra, rb), (), length=n)

    return ra


if __name__ == "__main__":
    for i in range(1, 9):
        _ = sample(jax.random.PRNGKey(1), i)
    jaxpr = jax.make_jaxpr(sample, static_argnums=(1,))(jax.random.PRNGKey(1), 8)
    print("inner_loop calls staged:", str(jaxpr).count("name=inner_loop"))
