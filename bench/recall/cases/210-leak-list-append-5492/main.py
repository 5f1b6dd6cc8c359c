import jax
from jax import jit

lst = []


@jit
def f(x):
    lst.append(x)
    return x


if __name__ == "__main__":
    with jax.checking_leaks():
        f(3.)  # raises exception!
