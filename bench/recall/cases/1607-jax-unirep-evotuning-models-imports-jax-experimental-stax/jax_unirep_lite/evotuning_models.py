"""Evotuning models."""
from jax.experimental.stax import Dense, Softmax, serial

from .layers import AAEmbedding


def mlstm64():
    """Return mLSTM64 model's initialization and forward pass functions."""
    model_layers = (
        AAEmbedding(10),
        Dense(25),
        Softmax,
    )
    init_fun, apply_fun = serial(*model_layers)
    return init_fun, apply_fun
