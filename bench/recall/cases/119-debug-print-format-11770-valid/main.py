import jax


@jax.jit
def f(x):
    jax.debug.print("{x}", x=x)
    return x


if __name__ == "__main__":
    f(1.0)
