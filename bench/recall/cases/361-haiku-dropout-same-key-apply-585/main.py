import haiku as hk
import jax
import jax.numpy as jnp


def f(x):
    return hk.dropout(hk.next_rng_key(), 0.5, x)


f = hk.transform(f)

init_key = jax.random.PRNGKey(42)
x = jnp.ones([4])
params = f.init(init_key, x)  # NOTE: Params are empty in this example

if __name__ == "__main__":
    # Passing the same key gives the same dropout mask.
    key = jax.random.PRNGKey(42)
    out1 = f.apply(params, key, x)
    out2 = f.apply(params, key, x)
    print("same mask:", bool((out1 == out2).all()))
