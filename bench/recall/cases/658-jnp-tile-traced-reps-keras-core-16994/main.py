import jax
import jax.numpy as jnp
import numpy as np

def foo(a, b):
    print(f"a.shape {a.shape}")
    print(f"b.shape {b.shape}")
    return jnp.tile(a, b)

@jax.jit
def foo_jit(a, b):
    print(f"a.shape {a.shape}")
    print(f"b.shape {b.shape}")
    return jnp.tile(a, b)

a = np.ndarray([1, 20, 20])
b = np.array([64, 1, 1])
c = foo(a, b)
print(c.shape)

if __name__ == "__main__":
    c_jit = foo_jit(a, b)
    print(c_jit.shape)
