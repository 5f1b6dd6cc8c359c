import jax
import jax.numpy as jnp
from jax.tree_util import Partial
import time

def global_fun(y, z):
    def my_fun(x, y, z):
        return x * (y + z) * jnp.ones(3)

    # Partially apply my_fun to bind the first argument
    fun = Partial(lambda x: my_fun(x, *args))

    return fun(3.0)

# == jit the global function
global_fun_jit = jax.jit(global_fun)

# == first set of arguments
args = (2.0, 3.0)

start_time = time.time()
global_fun_jit(*args).block_until_ready()
print(f"{(time.time() - start_time)*1e6:.3f} us")

start_time = time.time()
global_fun_jit(*args).block_until_ready()
print(f"{(time.time() - start_time)*1e6:.3f} us")

# == second set of arguments
args = (4.0, 5.0)

start_time = time.time()
out = global_fun_jit(*args).block_until_ready()
print(f"{(time.time() - start_time)*1e6:.3f} us")

print("jitted:", out[0], "expected:", global_fun(*args)[0])
print("stale:", bool(out[0] != global_fun(*args)[0]))
