import jax
from jax import jit


class A1:
    def __init__(self):
        # self.f = jax.jit(self.f)
        pass

    @jit
    def f(self, x):
        return x


if __name__ == "__main__":
    a = A1()
    try:
        print(a.f(5))
    except TypeError as e:
        print("TypeError:", e)
