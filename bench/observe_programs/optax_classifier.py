"""A small optax training loop: logistic regression on synthetic data, 200 steps."""
import jax
import jax.numpy as jnp
import optax

key = jax.random.key(0)
k1, k2, k3 = jax.random.split(key, 3)
X = jax.random.normal(k1, (2048, 32))
w_true = jax.random.normal(k2, (32,))
y = (X @ w_true > 0).astype(jnp.float32)

params = {"w": jnp.zeros(32), "b": jnp.zeros(())}
opt = optax.adam(1e-2)
state = opt.init(params)


def loss_fn(p, xb, yb):
    logits = xb @ p["w"] + p["b"]
    return optax.sigmoid_binary_cross_entropy(logits, yb).mean()


@jax.jit
def step(p, s, xb, yb):
    loss, g = jax.value_and_grad(loss_fn)(p, xb, yb)
    updates, s = opt.update(g, s, p)
    return optax.apply_updates(p, updates), s, loss


losses = []
for i in range(200):
    j = (i * 256) % 2048
    params, state, loss = step(params, state, X[j:j + 256], y[j:j + 256])
    losses.append(loss)
print("final loss", float(jnp.stack(losses)[-1]))
