import jax
import jax.numpy as jnp

PALIGEMMA_EOS_TOKEN = 1
VOCAB = 16


def put_along_last_axis(arr, indices, values):
    """Like np.put_along_axis(..., axis=-1), since jax is missing it."""
    assert arr.ndim == indices.ndim == values.ndim, (arr.ndim, indices.ndim, values.ndim)
    onehot = jax.nn.one_hot(indices, arr.shape[-1], dtype=values.dtype)
    put_mask = jnp.einsum("...i,...in->...n", jnp.ones(values.shape, jnp.int32), onehot)
    put_values = jnp.einsum("...i,...in->...n", values, onehot)
    return jnp.where(put_mask, put_values, arr)


class Pi0FAST:
    def __init__(self, batch_size: int = 2):
        self.batch_size = batch_size

    def llm(self, token):
        # stands for PaliGemma.llm(...): the same next-token logits at every step, EOS never chosen
        logits = jnp.zeros((token.shape[0], 1, VOCAB))
        return logits.at[..., PALIGEMMA_EOS_TOKEN].set(-jnp.inf)

    def sample_actions(
        self,
        rng,
        observation,
        *,
        max_decoding_steps: int = 8,
        temperature: float = 0.0,
    ):
        # prepare decoding -- final logit decodes the first token
        last_logit = self.llm(observation["state"][:, :1].astype(jnp.int32))
        output_tokens = jnp.zeros((last_logit.shape[0], max_decoding_steps))

        def step(carry):
            rng, last_logit, output_tokens, _, step = carry

            # Sample token from last logit
            # Split RNG for this step
            rng, rng_step = jax.random.split(rng)
            token = jax.lax.cond(
                temperature > 0.0,
                lambda _: jax.random.categorical(rng_step, last_logit / temperature, axis=-1),
                lambda _: jnp.argmax(last_logit, axis=-1),
                operand=None,
            )
            output_tokens = put_along_last_axis(output_tokens, jnp.broadcast_to(step, (token.shape[0], 1)), token)

            # Check for early stopping --> stop if all batch elements have EOS token
            has_eos = jnp.any(token == PALIGEMMA_EOS_TOKEN, axis=-1)
            all_eos = jnp.all(has_eos)

            # Decode one step
            last_logit = self.llm(token)

            return rng, last_logit, output_tokens, all_eos, step + 1

        def cond(carry):
            _, _, _, all_eos, step = carry
            return (~all_eos) & (step < max_decoding_steps)

        # Use lax.while_loop so we can jit the full decoding loop.
        _, _, output_tokens, _, _ = jax.lax.while_loop(cond, step, (rng, last_logit, output_tokens, False, 0))
        return output_tokens
