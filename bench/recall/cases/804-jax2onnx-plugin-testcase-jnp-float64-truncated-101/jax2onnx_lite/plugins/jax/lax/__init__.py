from jax2onnx_lite.plugins.jax.lax import scatter_mul  # noqa: F401
