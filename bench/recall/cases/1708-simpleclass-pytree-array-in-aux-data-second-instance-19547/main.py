import jax
from jax import numpy as jnp

from simple_pkg import SimpleClass

# create similar objects
a = SimpleClass(x = jnp.array([1, 2]), y = jnp.array([2.5, 3.5, 4.5, 5.5]))
b = SimpleClass(x = jnp.array([1, 2]), y = jnp.array([2.5, 3.5, 4.5, 5.5]))

# just define the simplest function ever to return the object passed to it
def func(param):
   return param

resa = func(a) # this works
resb = func(b) # this works

# jitting the function
func = jax.jit(func)


if __name__ == "__main__":
  resa = func(a)
  print("first instance: ok")
  try:
    resb = func(b)
  except ValueError as err:
    print("ValueError:", str(err).splitlines()[0])
