from jax import jit


def f(x):
    print(x)
    print(repr(x))
    return x


if __name__ == "__main__":
    jit(f)(3.14)
