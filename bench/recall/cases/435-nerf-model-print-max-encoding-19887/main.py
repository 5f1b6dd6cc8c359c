import flax.linen as nn
import jax
import jax.numpy as jnp
import optax


class NerfModel(nn.Module):
    num_layers: int = 2
    width: int = 32

    @nn.compact
    def __call__(self, reflection_encoding):
        max_reflection_encoding = jnp.max(reflection_encoding)
        print(max_reflection_encoding, "max_reflection_encoding")
        x = reflection_encoding / max_reflection_encoding
        for _ in range(self.num_layers):
            x = nn.relu(nn.Dense(self.width)(x))
        return nn.Dense(3)(x)


model = NerfModel()
tx = optax.adam(1e-3)


@jax.jit
def train_step(params, opt_state, batch):
    def loss_fn(params):
        rgb = model.apply(params, batch["encoding"])
        return jnp.mean((rgb - batch["rgb"]) ** 2)

    loss, grads = jax.value_and_grad(loss_fn)(params)
    updates, opt_state = tx.update(grads, opt_state)
    return optax.apply_updates(params, updates), opt_state, loss


if __name__ == "__main__":
    batch = {"encoding": jnp.ones((64, 20)), "rgb": jnp.zeros((64, 3))}
    params = model.init(jax.random.PRNGKey(0), batch["encoding"])
    opt_state = tx.init(params)
    for step in range(3):
        params, opt_state, loss = train_step(params, opt_state, batch)
