import jax
import jax.numpy as jnp

from brk_pkg import debug


def fn(x):
    debug.foo.append(x)
    out = debug.brk(x)
    debug.foo.clear()
    return out


if __name__ == "__main__":
    jax.eval_shape(fn, jnp.array([1.0]))
    try:
        print(fn(jnp.array([1.0])))
    except jax.errors.UnexpectedTracerError as err:
        print("UnexpectedTracerError:", str(err).splitlines()[0])
