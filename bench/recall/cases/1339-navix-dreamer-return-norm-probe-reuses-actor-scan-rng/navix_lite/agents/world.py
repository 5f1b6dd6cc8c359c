import jax
import jax.numpy as jnp


def imagine(params, h0, z0, actor_logits_fn, horizon, rng):
    """Roll the latent dynamics forward `horizon` steps under the actor (reduced world model)."""

    def step(carry, key):
        h, z = carry
        feat = jnp.concatenate([h, z], axis=-1)
        logits = actor_logits_fn(feat)
        key_act, key_z = jax.random.split(key)
        action = jax.random.categorical(key_act, logits)
        logp = jax.nn.log_softmax(logits)[jnp.arange(logits.shape[0]), action]
        h = jnp.tanh(h @ params["w_h"] + jax.nn.one_hot(action, logits.shape[-1]) @ params["w_a"])
        z = z + 0.1 * jax.random.normal(key_z, z.shape)
        feat = jnp.concatenate([h, z], axis=-1)
        rew = feat @ params["w_r"]
        term_logit = feat @ params["w_t"]
        return (h, z), (feat, rew, term_logit, action, logp)

    keys = jax.random.split(rng, horizon)
    _, (feats, rews, term_logits, actions, logps) = jax.lax.scan(step, (h0, z0), keys)
    swap = lambda x: jnp.swapaxes(x, 0, 1)
    return swap(feats), swap(rews), swap(term_logits), swap(actions), swap(logps)
