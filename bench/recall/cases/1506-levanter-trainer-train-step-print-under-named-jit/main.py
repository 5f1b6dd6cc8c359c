import equinox as eqx
import jax
import jax.numpy as jnp
import optax

from levanter_lite import Trainer, TrainerConfig


def loss_fn(model, x, y):
    return jnp.mean((jax.vmap(model)(x) - y) ** 2)


if __name__ == "__main__":
    model = eqx.nn.Linear(3, 1, key=jax.random.PRNGKey(0))
    optimizer = optax.sgd(0.1)
    opt_state = optimizer.init(eqx.filter(model, eqx.is_inexact_array))
    trainer = Trainer(TrainerConfig(), optimizer, loss_fn)
    x = jnp.ones((4, 3))
    y = jnp.zeros((4, 1))
    for step in range(3):
        loss, model, opt_state = trainer.train_step(model, opt_state, x, y)
    print("steps run: 3")
