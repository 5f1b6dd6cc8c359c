import jax
import jax.numpy as jnp
import jax.random as jr


def sample_action(rng_key, logits):
    stored, sample = jr.split(rng_key)
    return stored, jr.categorical(sample, logits)


def step9_update(key, logits, dream_count=2):
    def dream_step(carry, _):
        key = carry
        key, candidate_key = jr.split(key)
        candidate = jr.categorical(candidate_key, logits)
        # the rollout's behavior chain is seeded with the post-split key ...
        stored, first_action = sample_action(key, logits)
        # ... and the same key is carried to the next dream
        return key, (candidate, first_action, candidate_key, stored)

    _, (candidates, first_actions, candidate_keys, stored) = jax.lax.scan(
        dream_step, key, None, length=dream_count)
    return candidates, first_actions, candidate_keys, stored


if __name__ == "__main__":
    logits = jnp.zeros(16)
    candidates, first_actions, candidate_keys, stored = step9_update(jr.key(7), logits)
    # dream 2's candidate key is bit-identical to the sample key dream 1's rollout used
    print("collision:", bool(jnp.all(jr.key_data(candidate_keys[1]) == jr.key_data(jr.split(jr.split(jr.key(7))[0])[1]))))
