import functools

import jax
from flax import nnx

from models import TestModule

rngs = nnx.Rngs(0)
test_module = TestModule(rngs)


# Test donate_argnums with nnx.clone'd layers.
@functools.partial(jax.jit, donate_argnums=(0,))
def update(state_pytree):
    return jax.tree.map(lambda x: x + 1, state_pytree)


if __name__ == "__main__":
    try:
        new_state = update(nnx.state(test_module))
        jax.block_until_ready(new_state)
        print("update ran")
    except Exception as e:
        print(type(e).__name__, str(e).splitlines()[0])
