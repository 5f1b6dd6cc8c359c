import jax


@jax.jit
def f(x, y, z):
    if z > 0:
        pass


if __name__ == "__main__":
    f(1, 2, 3)
