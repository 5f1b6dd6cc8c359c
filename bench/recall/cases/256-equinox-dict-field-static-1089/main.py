import sys
import jax
import equinox as eqx

print(f"Version of Python:  {sys.version}")
print(f"Version of Equinox: {eqx.__version__}")
print(f"Version of JAX:     {jax.__version__}")

class Problematic(eqx.Module):
    nested: dict

    def __init__(self, nested):
        self.nested = nested

    def __call__(self):
        return 1.0


model = Problematic({0: 0.0})


def merge(parameters, static):
    return eqx.combine(parameters, static)()

arr, static = eqx.partition(model, eqx.is_array)

_ = jax.jit(merge, static_argnames="static")(arr, static)
print("Calling the model after filtering and jitting succeeded.")
