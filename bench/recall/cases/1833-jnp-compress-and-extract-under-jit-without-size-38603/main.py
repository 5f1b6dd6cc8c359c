import jax
import jax.numpy as jnp

t = jnp.ones((4, 4), dtype=jnp.float32)


def f(x):
    return jnp.compress(x.ravel() > 0, x.ravel())


def g(x):
    return jnp.extract(x > 0, x)


if __name__ == "__main__":
    print(f(t).shape)    # eager: (16,)
    for fn in (f, g):
        try:
            jax.jit(fn)(t)        # crashes
            print(fn.__name__, "jit: ok")
        except Exception as e:
            print(fn.__name__, "jit:", type(e).__name__, str(e).splitlines()[0])
