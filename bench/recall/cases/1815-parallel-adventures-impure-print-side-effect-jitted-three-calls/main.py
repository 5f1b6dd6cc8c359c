import jax.numpy as jnp
from jax import jit


def impure_print_side_effect(x):
    print("This is a side effect")
    return x + 1


if __name__ == "__main__":
    print(f" First call: {jit(impure_print_side_effect)(4.)}")
    print(f"Second call: {jit(impure_print_side_effect)(5.)}")
    print("Third call, different type : ", jit(impure_print_side_effect)(jnp.array([6.])))
    print("calls: 3")
