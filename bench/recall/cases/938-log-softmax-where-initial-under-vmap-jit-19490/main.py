import os
import jax
import jax.numpy as jnp
import jax.random as jr
from jax import vmap, jit, nn, value_and_grad

key = jr.PRNGKey(12322351)
@jit
def f(x, mask, i):
    # x = jnp.where(mask, x, x.min())
    return nn.log_softmax(x, where=mask, initial=x.max())[i]

if __name__ == "__main__":
    key, sub = jr.split(key)
    x = jr.normal(sub, (40, 12)) * 100
    key, sub = jr.split(key)
    mask = jr.bernoulli(sub, 0.5, (40, 12))
    idx = jnp.zeros(40, dtype=jnp.int32)
    for i in range(40):
        while not jnp.any(mask[i]):
            key, sub = jr.split(key)
            mask = mask.at[i].set(jr.bernoulli(sub, 0.5, (12,)))
        j, = jnp.where(mask[i])
        key, sub = jr.split(key)
        idx = idx.at[i].set(jr.choice(sub, j))

    v, g = value_and_grad(lambda x: vmap(f)(x, mask, idx).sum())(x)
    print(v.item(), g.min().item(), g.max().item())
