from jax import lax


def f(i, x):
  return lax.switch(i, [lambda x: dict(a=x),
                        lambda x: dict(a=(x, x))], x)


if __name__ == "__main__":
    try:
        f(0, 42)
    except TypeError as e:
        print("TypeError:", e)
