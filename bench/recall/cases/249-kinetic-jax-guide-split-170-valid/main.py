import jax
import jax.numpy as jnp


def train():
    def loss_fn(params, x, y):
        pred = x @ params["w"] + params["b"]
        return jnp.mean((pred - y) ** 2)

    grad_fn = jax.grad(loss_fn)

    key = jax.random.key(0)
    w_key, x_key, noise_key = jax.random.split(key, 3)
    params = {
        "w": jax.random.normal(w_key, (10, 1)),
        "b": jnp.zeros(1),
    }

    # Dummy data
    x = jax.random.normal(x_key, (512, 10))
    y = x @ jnp.ones((10, 1)) + 0.1 * jax.random.normal(noise_key, (512, 1))

    for _ in range(10):
        grads = grad_fn(params, x, y)
        params = jax.tree.map(lambda p, g: p - 0.01 * g, params, grads)
    return params, x


if __name__ == "__main__":
    params, x = train()
    print("trained:", params["w"].shape)
