import jax
from functools import partial

class MyClass:
    def __init__(self):
        self.a = 1
    @partial(jax.jit, static_argnums=0)
    def f(self):
        print('tracing')
        return self.a + 1

obj = MyClass()
print(obj.f())
obj.a = 2
print(obj.f())
print("stale:", int(obj.f()) == 2)
