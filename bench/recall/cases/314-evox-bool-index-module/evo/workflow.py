import jax

from evo.operators import bar


@jax.jit
def foo(x):
    return bar(x)
