import flax.linen as nn
import jax
import jax.numpy as jnp
import optax
from jax import jit


class NeRFModel(nn.Module):
    @nn.compact
    def __call__(self, pts):
        x = nn.relu(nn.Dense(16)(pts))
        return nn.Dense(4)(x)


def single_step_wojit(key, params, opt_state, rays, target, lr, model, N_samples):
    t_vals = jnp.linspace(0.0, 1.0, N_samples)
    pts = rays[:, None, :] * t_vals[None, :, None]

    def loss_fn(p):
        rgb = model.apply(p, pts).mean(axis=1)[:, :3]
        return jnp.mean((rgb - target) ** 2)

    loss, grads = jax.value_and_grad(loss_fn)(params)
    updates, opt_state = optax.sgd(lr).update(grads, opt_state)
    return optax.apply_updates(params, updates), opt_state, loss


single_step = jit(single_step_wojit)

if __name__ == "__main__":
    model = NeRFModel()
    key = jax.random.PRNGKey(0)
    rays = jnp.ones((8, 3))
    target = jnp.zeros((8, 3))
    params = model.init(key, jnp.ones((8, 16, 3)))
    opt_state = optax.sgd(1e-2).init(params)
    print(single_step(key, params, opt_state, rays, target, 1e-2, model, 16)[2])
