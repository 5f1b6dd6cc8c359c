"""
Example: Deep Markov Model inferred using SteinVI (the sequence helpers only)
"""
import numpy as np

import jax
from jax import numpy as jnp


def _reverse_padded(padded, lengths):
    def _reverse_single(p, length):
        new = jnp.zeros_like(p)
        reverse = jnp.roll(p[::-1], length, axis=0)
        return jax.ops.index_update(new, jax.ops.index[:], reverse)

    return jax.vmap(_reverse_single)(padded, lengths)


def load_data(seqs, lengths):
    return (seqs, _reverse_padded(seqs, lengths), lengths)


if __name__ == "__main__":
    seqs = jnp.asarray(np.arange(2 * 5 * 3, dtype=np.float32).reshape(2, 5, 3))
    lengths = jnp.array([3, 5])
    _, reversed_seqs, _ = load_data(seqs, lengths)
    print(reversed_seqs[0, :, 0])
