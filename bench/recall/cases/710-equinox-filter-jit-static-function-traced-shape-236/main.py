import functools
import typing

import equinox
import jax
import jax.numpy as jnp


class Grid(equinox.Module):
    shape: jnp.ndarray
    spacing: float

    def __init__(self, shape, spacing):
        self.shape = jnp.asarray(shape)
        self.spacing = spacing


def smooth(field: jnp.ndarray) -> jnp.ndarray:
    return 0.5 * (field + jnp.roll(field, 1, axis=0))


@functools.partial(jax.jit, static_argnames=['myfunction'])
def jit_function(mymodule: equinox.Module, myarray: jnp.ndarray, myfunction: typing.Callable) -> jnp.ndarray:
    field = jnp.zeros(mymodule.shape)
    field = field + myarray.reshape(-1, 1, 1)
    return myfunction(field) * mymodule.spacing


if __name__ == "__main__":
    grid = Grid((3, 4, 5), 0.1)
    print(jit_function(grid, jnp.arange(3.0), smooth).shape)
