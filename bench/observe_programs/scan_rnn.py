import jax, jax.numpy as jnp
from jax import lax

def cell(h, x, w):
    return jnp.tanh(h @ w + x), None

@jax.jit
def run(w, xs):
    h, _ = lax.scan(lambda h, x: cell(h, x, w), jnp.zeros(128), xs)
    return h.sum()

g = jax.jit(jax.grad(run))
w = jax.random.normal(jax.random.key(1), (128, 128)) * 0.05
xs = jax.random.normal(jax.random.key(2), (200, 128))
for i in range(60):
    w = w - 1e-3 * g(w, xs)
print(float(run(w, xs)))
