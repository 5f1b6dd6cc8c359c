import jax

jax.config.update("jax_check_tracer_leaks", True)
x = None


@jax.jit
def f(y):
    global x
    x = y
    return y + 2


if __name__ == "__main__":
    f(7)
