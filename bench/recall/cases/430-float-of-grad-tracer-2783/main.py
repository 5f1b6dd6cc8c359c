import jax as api


def func(x):
    return x if float(x) >= 0. else -x


if __name__ == "__main__":
    print(api.grad(func)(3.))
