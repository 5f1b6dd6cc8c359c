from jax import jit


class X:
    def f(self):
        print("Recompiling")


x = X()

if __name__ == "__main__":
    for i in range(3):
        jit(x.f)()
