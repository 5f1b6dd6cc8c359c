import jax.numpy as jnp
from jax import jit

from ops import f

f_jit = jit(f, static_argnums=0)

x_int = int(5)
arange_jit = f_jit(x_int)

x_device_array = jnp.add(4, 1)
arange_jit = f_jit(x_device_array)

if __name__ == "__main__":
    print(arange_jit)
