"""A reduced autoray: `do(fn, *args)` runs `fn` from the library of the first argument."""

import contextlib
import importlib

_BACKENDS = {"builtins": "numpy", "numpy": "numpy", "jax": "jax.numpy", "jaxlib": "jax.numpy"}


def infer_backend(x):
    return x.__class__.__module__.split(".")[0]


_DEFAULT = [None]


@contextlib.contextmanager
def backend_like(like):
    _DEFAULT.append(like)
    try:
        yield
    finally:
        _DEFAULT.pop()


def do(fn, *args, like=None, **kwargs):
    backend = like or _DEFAULT[-1] or infer_backend(args[0])
    module = importlib.import_module(_BACKENDS[backend])
    return getattr(module, fn)(*args, **kwargs)
