"""Stand-in for tesseract_jax.apply_tesseract: calls the Tesseract's apply function
(a vector add, as the vectoradd_jax example's tesseract_api) on its inputs."""
import jax.numpy as jnp


class VectoraddTesseract:
    def apply(self, inputs):
        a, b = inputs["a"], inputs["b"]
        result = a["v"] * a["s"] + b["v"] * b["s"]
        return {"vector_add": {"result": result, "normed_result": result / jnp.linalg.norm(result)}}


def apply_tesseract(tess, inputs, vmap_method=None):
    return tess.apply(inputs)
