import jax
import jax.numpy as jnp

from cpt_pkg import CPT


def f(x, e, cpt):
    """A convoluted function I could refer to if necessary."""
    e = e.at[1:2].set(x)
    t = cpt.set_c(e, jax.lax.create_token())  # Instead of None
    d = cpt.get_d(t)
    return d.sum()


gf = jax.grad(f)


if __name__ == "__main__":
    _2s = jnp.full((3,), 2.0)
    _3s = jnp.full((3,), 3.0)
    _4s = jnp.full((3,), 4.0)
    cpt = CPT(a=_2s, b=_3s)
    print(gf(.5, _4s, cpt))
    print("cpt.c is a tracer:", isinstance(cpt.c, jax.core.Tracer))
    try:
        cpt.get_d()
    except jax.errors.UnexpectedTracerError as err:
        print("UnexpectedTracerError:", str(err).splitlines()[0])
