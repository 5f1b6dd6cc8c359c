"""Benchmarks for tesseract-jax (the vectoradd_jax jacobian ones)."""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np

from benchmarks._benchmark import benchmark
from tesseract_jax_lite import VectoraddTesseract, apply_tesseract

MAX_JAC_ARRAY_SIZE = 1024


def create_test_array(size):
    return jnp.asarray(np.random.default_rng(0).standard_normal(size), dtype=jnp.float32)


def _make_vectoradd_inputs(a_v, b_v):
    return {"a": {"v": a_v, "s": 2.0}, "b": {"v": b_v, "s": 1.0}}


class TestVectoraddApi:
    """Benchmarks for vectoradd_jax Tesseract via from_tesseract_api."""

    def setup_inputs(self, vectoradd_tesseract_api, array_size):
        jax.clear_caches()
        self.tess = vectoradd_tesseract_api
        self.a_v = create_test_array(array_size)
        self.b_v = create_test_array(array_size)

    def test_vectoradd_api_jacfwd(self, benchmark, array_size):
        """Forward-mode Jacobian (NxN matrix) of vector_add.result w.r.t. a.v."""
        b_v = self.b_v

        def fn(a_v):
            out = apply_tesseract(
                self.tess,
                _make_vectoradd_inputs(a_v, b_v),
                vmap_method="auto_experimental",
            )
            return out["vector_add"]["result"]

        jac_fn = jax.jit(jax.jacfwd(fn))
        jax.block_until_ready(jac_fn(self.a_v))  # warmup
        return benchmark(lambda a: jax.block_until_ready(jac_fn(a)), self.a_v)

    def test_vectoradd_api_jacrev(self, benchmark, array_size):
        """Reverse-mode Jacobian (NxN matrix) of vector_add.result w.r.t. a.v."""
        b_v = self.b_v

        def fn(a_v):
            out = apply_tesseract(
                self.tess,
                _make_vectoradd_inputs(a_v, b_v),
                vmap_method="auto_experimental",
            )
            return out["vector_add"]["result"]

        jac_fn = jax.jit(jax.jacrev(fn))
        jax.block_until_ready(jac_fn(self.a_v))  # warmup
        return benchmark(lambda a: jax.block_until_ready(jac_fn(a)), self.a_v)
