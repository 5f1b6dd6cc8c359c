from jax import jit
from functools import partial

class test:
    def __init__(self) -> None:
        pass
    @partial(jit, static_argnums=(0,))
    def wrapper(self,x):
        return self.fn(x)
    def assign_fn(self,fn):
        self.fn = fn

t = test()

fn = lambda x: x + 1
t.assign_fn(fn)
print(t.wrapper(1)) # prints 2, as expect

fn = lambda x: x + 2
t.assign_fn(fn)
print(t.wrapper(1)) # stills prints 2, although it should print 3
print(t.fn(1)) # prints 3
print(t.wrapper(1)) # stills prints 2

print("stale:", int(t.wrapper(1)) != t.fn(1))
