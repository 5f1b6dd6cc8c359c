import jax
from jax import numpy as jnp
from jax import jit

def h(l, x):
        l[0]=9999
        return l         # <--------
def f1():
        l=[0]
        l = h(l, jnp.array([1,2]))       # <---------
        return l
def f2():
        l=[0]
        l = jax.vmap(h, (None,0))(l, jnp.array([1,2]))   # <---------
        return l
f1=jax.jit(f1)
f2=jax.jit(f2)

if __name__ == "__main__":
        a = f1()
        print("a: ", a)

        a = f2()
        print("a: ", a)
