from jax import jit
from equinox import tree_equal

@jit
def matches(x):
    return tree_equal(x, {"foo": 3})

if __name__ == "__main__":
    print("unjitted:", tree_equal({"foo": 3}, {"foo": 3}))
    print("matches:", matches({"foo": 3}))  # False
