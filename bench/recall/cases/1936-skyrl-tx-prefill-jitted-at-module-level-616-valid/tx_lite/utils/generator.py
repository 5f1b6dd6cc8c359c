import jax
import jax.numpy as jnp


@jax.jit
def _prefill(model, input_ids, attention_mask, positions, adapter_indices):
    return model(input_ids, attention_mask=attention_mask, positions=positions, adapter_indices=adapter_indices)


class GeneratorMixin:

    def generate(self, input_ids, attention_mask, adapter_indices=None, max_new_tokens=2):
        positions = jnp.cumsum(attention_mask, axis=-1) - 1

        # Prefill: process full prompt
        logits = _prefill(self, input_ids, attention_mask, positions, adapter_indices)
        next_token = jnp.argmax(logits[:, -1], axis=-1)
        return next_token
