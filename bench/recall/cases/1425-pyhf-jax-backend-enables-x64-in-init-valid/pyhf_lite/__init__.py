from pyhf_lite.tensor.jax_backend import jax_backend

tensorlib = None


def set_backend(backend):
    global tensorlib
    tensorlib = backend
