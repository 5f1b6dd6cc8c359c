import jax
import jax.numpy as jnp

def fn(x, w):
    return jnp.sum(jax.nn.softmax(x, axis=0, where=w, initial=0.0))

def lfn(x, w):
    return jnp.sum(jax.nn.log_softmax(x, axis=0, where=w, initial=0.0))

if __name__ == "__main__":
    x = jnp.array([1.0, 1.0, 100.0])
    w = jnp.array([True, True, False])
    print(jax.grad(fn)(x, w))
    print(jax.grad(lfn)(x, w))
