import jax.numpy as jnp


def embed_msa(msa_activations, prev_msa_first_row):
    msa_activations = msa_activations.at[0].add(prev_msa_first_row)
    return msa_activations


if __name__ == "__main__":
    print(embed_msa(jnp.zeros((3, 4, 2)), jnp.ones((4, 2)))[0, 0])
