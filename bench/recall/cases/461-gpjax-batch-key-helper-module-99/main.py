import jax
import jax.numpy as jnp
import jax.random as jr

from gpjax_lite.dataset import Dataset
from gpjax_lite.fit import fit_batches

jax.config.update("jax_debug_key_reuse", True)

if __name__ == "__main__":
    x = jnp.linspace(0, 1, 20)[:, None]
    data = Dataset(X=x, y=2 * x)
    objective = lambda w, batch: jnp.mean((batch.X * w - batch.y) ** 2)
    params, history = fit_batches(objective, jnp.array(0.0), data, 5, 4, jr.key(0))
    print(history)
