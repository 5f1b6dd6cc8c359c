"""Helper functions and wrapper for converting Jax arrays to NumPy arrays (trimmed)."""
import functools
import numbers
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np


@functools.singledispatch
def jax_to_numpy(value: Any) -> Any:
    """Converts a value to a numpy array."""
    raise Exception(
        f"No known conversion for Jax type ({type(value)}) to NumPy registered. Report as issue on github."
    )


@jax_to_numpy.register(numbers.Number)
@jax_to_numpy.register(np.ndarray)
def _numpy_to_jax(value: np.ndarray) -> np.ndarray:
    return value


@jax_to_numpy.register(jax.Array)
def _devicearray_jax_to_numpy(value: jax.Array) -> np.ndarray:
    """Converts a Jax Array to a numpy array."""
    return np.array(value)


if __name__ == "__main__":
    print("converted:", type(jax_to_numpy(jnp.ones(3))).__name__)
