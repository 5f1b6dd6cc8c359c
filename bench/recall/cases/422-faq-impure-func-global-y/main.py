from jax import jit

y = 0


@jit  # Different behavior with jit
def impure_func(x):
    print("Inside:", y)
    return x + y


if __name__ == "__main__":
    for y in range(3):
        print("Result:", impure_func(y))
