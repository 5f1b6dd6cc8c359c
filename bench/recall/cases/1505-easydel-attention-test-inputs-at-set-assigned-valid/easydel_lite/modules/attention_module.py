from functools import partial

import jax
from jax import numpy as jnp


class AttentionModule:

    @staticmethod
    def test_attentions(
            batch_size=8,
            sequence_length=128 * 8,
            num_attention_heads=32,
            num_key_value_heads=32,
            chunk_size=128,
            axis_dims=(1, -1, 1, 1)
    ):
        """
        creates a test for attention module to help you find the best attention mechanism you can use.
        """
        import flax
        from .fjformer_rng import GenerateRNG
        head_dim = 128
        rng = GenerateRNG()

        def value_and_grad_wrapper(fn, **kwargs):
            @partial(jax.value_and_grad, **kwargs)
            def inner(*args, **kwargs):
                return jnp.sum(fn(*args, **kwargs))

            return inner

        @value_and_grad_wrapper
        def call_dot_product(q, k, v, b):
            attention_pred = flax.linen.dot_product_attention(q, k, v, b)
            return attention_pred

        def make_inputs():
            q = jax.random.normal(rng.rng, (batch_size, sequence_length, num_attention_heads, head_dim),
                                  dtype="float32")
            k = jax.random.normal(rng.rng, (batch_size, sequence_length, num_key_value_heads, head_dim),
                                  dtype="float32")
            v = jax.random.normal(rng.rng, (batch_size, sequence_length, num_key_value_heads, head_dim),
                                  dtype="float32")
            c = flax.linen.attention.make_causal_mask(
                jnp.ones((batch_size, sequence_length))
            )
            a = jnp.ones((batch_size, sequence_length))
            a = a.at[:, sequence_length // 2:].set(0)
            b = jnp.where(
                flax.linen.attention.combine_masks(
                    jnp.expand_dims(jnp.expand_dims(a, 1), 1), c
                ),
                0,
                -jnp.inf
            )

            return q, k, v, b

        q, k, v, b = make_inputs()
        excepted_output, excepted_grads = call_dot_product(q, k, v, b)
        return b, excepted_output
