"""jaxlint: catches JAX's sharp bits before they cost an afternoon."""

__version__ = "0.1.0"
