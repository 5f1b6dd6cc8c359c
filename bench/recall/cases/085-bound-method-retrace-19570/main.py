import jax


class Foo:

    def __init__(self):
        self.f_traced = False

    def f(self):
        print('f')
        assert not self.f_traced
        self.f_traced = True


foo = Foo()

if __name__ == "__main__":
    jax.jit(foo.f).lower()
    jax.jit(foo.f).lower()  # Fails with assertion error.
