import equinox as eqx
import jax
import jax.numpy as jnp


class MLPBlock(eqx.Module):
    linear: eqx.nn.Linear
    dropout: eqx.nn.Dropout
    key: jax.Array

    def __init__(self, in_size, out_size, p, key):
        lkey, dkey = jax.random.split(key)
        self.linear = eqx.nn.Linear(in_size, out_size, key=lkey)
        self.dropout = eqx.nn.Dropout(p)
        self.key = dkey

    def __call__(self, x):
        x = jax.nn.relu(self.linear(x))
        return self.dropout(x, key=self.key)


@eqx.filter_jit
def forward(model, x):
    return model(x)


if __name__ == "__main__":
    model = MLPBlock(8, 32, 0.5, jax.random.PRNGKey(0))
    x = jnp.ones(8)
    out1 = forward(model, x)
    out2 = forward(model, x + 0.0)
    print("same dropout mask:", bool(((out1 == 0) == (out2 == 0)).all()))
