import jax
from functools import partial
from typing import List, Tuple


def dummy(a: int, b: Tuple[str, ...]):
    return a + len(b)


j_dummy = jax.jit(dummy, static_argnames=['b'])

if __name__ == "__main__":
    data_list = ['hello', 'world']
    print("result:", int(j_dummy(2, tuple(data_list))))
