import jax
import jax.numpy as jnp

from nerf.train import model, train_step, tx

if __name__ == "__main__":
    batch = {"encoding": jnp.ones((64, 20)), "rgb": jnp.zeros((64, 3))}
    params = model.init(jax.random.PRNGKey(0), batch["encoding"])
    opt_state = tx.init(params)
    for step in range(3):
        params, opt_state, loss = train_step(params, opt_state, batch)
