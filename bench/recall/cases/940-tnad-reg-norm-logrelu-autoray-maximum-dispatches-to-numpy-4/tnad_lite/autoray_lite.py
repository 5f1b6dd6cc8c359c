"""A reduced autoray: `do(fn, *args)` runs `fn` from the library of the first argument."""

import importlib

_BACKENDS = {"builtins": "numpy", "numpy": "numpy", "jax": "jax.numpy", "jaxlib": "jax.numpy"}


def infer_backend(x):
    return x.__class__.__module__.split(".")[0]


def do(fn, *args, like=None, **kwargs):
    backend = like or infer_backend(args[0])
    module = importlib.import_module(_BACKENDS[backend])
    return getattr(module, fn)(*args, **kwargs)
