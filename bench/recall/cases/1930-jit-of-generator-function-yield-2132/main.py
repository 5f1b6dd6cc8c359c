from jax import jit


def yf(x):
    yield(x)


if __name__ == "__main__":
    print(yf, next(yf(1.5)))
    try:
        jyf = jit(yf)
        print(yf, jyf)
        print(next(jyf(1.5)))
    except TypeError as e:
        print(f"{type(e).__name__}: {e}")
