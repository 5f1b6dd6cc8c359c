import jax
import equinox as eqx

from model import Problematic

model = Problematic({0: 0.0})


def merge(parameters, static):
    return eqx.combine(parameters, static)()

arr, static = eqx.partition(model, eqx.is_array)

_ = jax.jit(merge, static_argnames="static")(arr, static)
print("Calling the model after filtering and jitting succeeded.")
