from jax import jit

g = 0.


def impure_uses_globals(x):
    return x + g


if __name__ == "__main__":
    # JAX captures the value of the global during the first run
    print("First call: ", jit(impure_uses_globals)(4.))
    g = 10.  # Update the global

    # Subsequent runs may silently use the cached value of the globals
    print("Second call: ", jit(impure_uses_globals)(5.))
