import jax, jax.numpy as jnp
import numpy as np

def init(key, sizes):
    params = []
    for m, n in zip(sizes[:-1], sizes[1:]):
        key, sub = jax.random.split(key)
        params.append((jax.random.normal(sub, (m, n)) * 0.1, jnp.zeros(n)))
    return params

def forward(params, x):
    for w, b in params[:-1]:
        x = jax.nn.relu(x @ w + b)
    w, b = params[-1]
    return x @ w + b

def loss(params, x, y):
    return jnp.mean((forward(params, x) - y) ** 2)

@jax.jit
def step(params, x, y):
    l, g = jax.value_and_grad(loss)(params, x, y)
    return jax.tree_util.tree_map(lambda p, q: p - 0.01 * q, params, g), l

key = jax.random.key(0)
params = init(key, [64, 256, 256, 10])
rng = np.random.default_rng(0)
X = jnp.asarray(rng.normal(size=(4096, 64)), jnp.float32)
Y = jnp.asarray(rng.normal(size=(4096, 10)), jnp.float32)
for epoch in range(3):
    for i in range(0, 4096, 128):
        params, l = step(params, X[i:i + 128], Y[i:i + 128])
    print("epoch", epoch, float(l))
