from .backends.jax_backend import JaxBackend

backend = JaxBackend()
