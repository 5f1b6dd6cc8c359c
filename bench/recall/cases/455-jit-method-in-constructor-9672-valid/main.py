import jax


class X:
    def __init__(self):
        # No need for static_argnums=(0,) because `self.f` is a bound method.
        self.f = jax.jit(self.f)

    def f(self, a, b, c):
        print('compiling')
        return a + b + c


x = X()

if __name__ == "__main__":
    for i in range(3):
        x.f(1, 2, 3)
