import jax
import jax.numpy as jnp

from init2winit_lite.model import LinearModel
from init2winit_lite.trainer_lib.trainer import Trainer

if __name__ == "__main__":
    model = LinearModel()
    hps = {'grad_clip': 1.0}
    trainer = Trainer(lr_fn=lambda step: 0.1)
    params = {'w': jnp.zeros((3, 1)), 'b': jnp.zeros((1,))}
    optimizer_state = trainer.init_optimizer_state(params)
    batch = {'inputs': jnp.ones((8, 3)), 'targets': jnp.ones((8, 1))}
    rng = jax.random.PRNGKey(0)
    cost = jnp.zeros(())
    for step in range(3):
        optimizer_state, params, _, _, cost, grad_norm, _ = trainer.update_params(
            model, hps, optimizer_state, params, {}, None, batch, step, rng, cost)
    print("sum train cost:", float(cost))
