import jax
from functools import partial
from typing import List


def dummy(a: int, b: List[str]):
    return a + len(b)


# static_argnames を使って 'b' を静的引数にしようとすると...
j_dummy = jax.jit(dummy, static_argnames=['b'])

if __name__ == "__main__":
    print(j_dummy(2, ['hello', 'world']))
