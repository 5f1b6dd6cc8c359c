import jax
import jax.numpy as jnp


def embed_msa(msa_activations, prev_msa_first_row):
    msa_activations = jax.ops.index_add(msa_activations, 0, prev_msa_first_row)
    return msa_activations


if __name__ == "__main__":
    print(embed_msa(jnp.zeros((3, 4, 2)), jnp.ones((4, 2))))
