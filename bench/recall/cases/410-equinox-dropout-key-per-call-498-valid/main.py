import equinox as eqx
import jax
import jax.numpy as jnp


class MLPBlock(eqx.Module):
    linear: eqx.nn.Linear
    dropout: eqx.nn.Dropout

    def __init__(self, in_size, out_size, p, key):
        self.linear = eqx.nn.Linear(in_size, out_size, key=key)
        self.dropout = eqx.nn.Dropout(p)

    def __call__(self, x, *, key):
        x = jax.nn.relu(self.linear(x))
        return self.dropout(x, key=key)


@eqx.filter_jit
def forward(model, x, key):
    return model(x, key=key)


if __name__ == "__main__":
    key = jax.random.PRNGKey(0)
    mkey, key = jax.random.split(key)
    model = MLPBlock(8, 32, 0.5, mkey)
    x = jnp.ones(8)
    # pre-generate an array of keys every epoch
    keys = jax.random.split(key, 2)
    out1 = forward(model, x, keys[0])
    out2 = forward(model, x, keys[1])
    print("same dropout mask:", bool(((out1 == 0) == (out2 == 0)).all()))
