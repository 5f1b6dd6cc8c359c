import jax
import jax.numpy as jnp

from losses import loss


@jax.jit
def update(params, obs):
    grad = jax.grad(loss)(params, obs)
    return params + grad


params = jnp.ones((10,))
obs = jnp.ones((4, 10))

if __name__ == "__main__":
    print(update(params, obs))
    print("loss equals row 3:", bool(loss(params, obs) == jnp.sum(params * obs[3])))
