import jax
from jax import jit

g = 0.


def impure_saves_global(x):
    global g
    g = x
    return x


if __name__ == "__main__":
    # JAX runs once the transformed function with special Traced values for arguments
    print("First call: ", jit(impure_saves_global)(4.))
    print("Saved global: ", g)  # Saved global has an internal JAX value
    print("leaked:", isinstance(g, jax.core.Tracer))
