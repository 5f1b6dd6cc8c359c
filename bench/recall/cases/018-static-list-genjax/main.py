import jax


def foo(x):
    return x[0] + 1


jfoo = jax.jit(foo, static_argnums=(0,))

if __name__ == "__main__":
    jfoo([2])
