from jax import jit

g = 0


@jit
def f():
    global g
    g = g+1
    return g


if __name__ == "__main__":
    print(f())  # gives 1
    print(f())  # gives 1
    print(f())  # gives 1
