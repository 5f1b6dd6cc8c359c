from jax import jit


def g(dyn, stat, /):
    print(dyn)
    print(stat)


jg = jit(g, static_argnames=("stat",))

if __name__ == "__main__":
    jg(1, 2)
