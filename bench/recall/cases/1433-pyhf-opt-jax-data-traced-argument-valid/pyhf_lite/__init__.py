from pyhf_lite.tensor.jax_backend import jax_backend

tensorlib = jax_backend()
optimizer = None


def get_backend():
    return tensorlib, optimizer
