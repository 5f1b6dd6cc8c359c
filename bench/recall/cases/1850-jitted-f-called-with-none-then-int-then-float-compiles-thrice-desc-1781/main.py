import jax


@jax.jit
def f(x):
    return x

a_s = [None, 0, 1, 1., 0.]

if __name__ == "__main__":
    for a in a_s:
        print(f"========Value: {a} Type: {type(a)}=========")
        with jax.log_compiles():
            f(a)
