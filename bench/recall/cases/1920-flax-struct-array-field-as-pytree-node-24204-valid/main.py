import jax

from envs.params import Foo
from envs.step import jit_step

if __name__ == "__main__":
    params = Foo(bar=jax.numpy.arange(4))
    try:
        for i in range(2):
            print(f"i: {i}")  # Fails on second iteration
            params = Foo(bar=jax.numpy.arange(4))
            params = jit_step(params)
        print("done")
    except ValueError as e:
        print("ValueError:", str(e).splitlines()[0])
