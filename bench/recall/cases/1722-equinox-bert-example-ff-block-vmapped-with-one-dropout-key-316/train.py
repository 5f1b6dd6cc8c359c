import jax
import jax.numpy as jnp

from bert_lite import TransformerLayer


if __name__ == "__main__":
    layer = TransformerLayer(
        hidden_size=16, intermediate_size=32, dropout_rate=0.5, key=jax.random.PRNGKey(0)
    )
    seq_len = 6
    # every position of the sequence carries the same hidden vector
    inputs = jnp.tile(jnp.linspace(-1.0, 1.0, 16), (seq_len, 1))
    out = layer(inputs, enable_dropout=True, key=jax.random.PRNGKey(1))
    print("same dropout at every position:", bool(jnp.allclose(out, out[0])))
