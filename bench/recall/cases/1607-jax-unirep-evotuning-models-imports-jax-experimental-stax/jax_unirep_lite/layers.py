import jax.numpy as np
from jax import lax, random
from jax.nn.initializers import glorot_normal, normal

"""mLSTM cell layers."""


def AAEmbedding(embedding_dims: int = 10, E_init=glorot_normal(), **kwargs):
    """
    Initial n-dimensional embedding of each amino-acid
    """

    def init_fun(rng, input_shape):
        k1, _ = random.split(rng)
        emb_matrix = E_init(k1, (input_shape[1], embedding_dims))
        output_dims = (-1, embedding_dims)

        return output_dims, emb_matrix

    def apply_fun(params, inputs, **kwargs):
        """
        Embed a single AA sequence
        """
        emb_matrix = params
        return np.matmul(inputs, emb_matrix)

    return init_fun, apply_fun
