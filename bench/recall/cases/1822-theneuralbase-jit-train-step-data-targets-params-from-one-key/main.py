import jax
import jax.numpy as jnp
from jax import grad

key = jax.random.PRNGKey(0)
X = jax.random.normal(key, (100, 10))
y = jax.random.normal(key, (100, 1))


def loss_fn(params, X, y):
    pred = jnp.dot(X, params)
    return jnp.mean((pred - y) ** 2)


def grad_fn(params, X, y):
    return grad(loss_fn)(params, X, y)


params = jax.random.normal(key, (10, 1))
lr = 0.01


def train_step(params, X, y):
    g = grad_fn(params, X, y)
    return params - lr * g


compiled_train_step = jax.jit(train_step)
for step in range(3):
    params = compiled_train_step(params, X, y)
    loss = loss_fn(params, X, y)

if __name__ == "__main__":
    print("targets are the inputs' first values:", bool(jnp.allclose(y.ravel(), X.ravel()[:100])))
