import jax
import jax.numpy as jnp

from foo_pkg import Foo

module = Foo(a=1, b=jax.random.PRNGKey(0))


@jax.jit
def f(m: Foo):
    print("Jitting")
    return m.a + m.b


if __name__ == "__main__":
    print(f(module)) # works
    # "You will get an error if you modify `b` in this example and try to run `f` again."
    module.b = jax.random.PRNGKey(1)
    try:
        print(f(module))
    except ValueError as err:
        print("ValueError:", str(err).splitlines()[0])
