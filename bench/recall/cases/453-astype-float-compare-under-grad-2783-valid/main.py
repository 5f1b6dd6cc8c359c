import jax as api


def func(x):
    return x if x.astype(float) >= 0. else -x


if __name__ == "__main__":
    print("grad:", api.grad(func)(3.))
