import jax.numpy as jnp
from jax import jit


def impure_print_side_effect(x):
    print("Executing function")  # This is a side-effect
    return x


if __name__ == "__main__":
    # The side-effects appear during the first run
    print("First call: ", jit(impure_print_side_effect)(4.))

    # Subsequent runs with parameters of same type and shape may not show the side-effect
    # This is because JAX now invokes a cached compilation of the function
    print("Second call: ", jit(impure_print_side_effect)(5.))

    # JAX re-runs the Python function when the type or shape of the argument changes
    print("Third call, different type: ", jit(impure_print_side_effect)(jnp.array([5.])))
