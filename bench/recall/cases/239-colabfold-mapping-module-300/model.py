import jax
import jax.numpy as jnp

from mapping import sharded_apply


def attention_like(x):
    return jnp.tanh(x)


if __name__ == "__main__":
    f = sharded_apply(jax.vmap(attention_like), shard_size=2)
    print(f(jnp.ones(4)))
