import jax
import jax.numpy as jnp

from easydel_lite import FlaxMixtralBlocKSparesTop2MLPCollection, MixtralConfig

if __name__ == "__main__":
    config = MixtralConfig()
    batch_size, sequence_length, hidden_dim = 1, 4, config.hidden_size
    hidden_states = jax.random.normal(jax.random.PRNGKey(0), (batch_size * sequence_length, hidden_dim))
    # routing as in FlaxMixtralSparseMoeBlock: softmax of router logits, top-k experts per token
    router_logits = jax.random.normal(jax.random.PRNGKey(1), (batch_size * sequence_length, config.num_local_experts))
    routing_weights, selected_experts = jax.lax.top_k(jax.nn.softmax(router_logits, axis=1),
                                                      k=config.num_experts_per_tok)
    routing_weights /= jnp.sum(routing_weights, axis=-1, keepdims=True)
    expert_mask = jax.nn.one_hot(selected_experts, num_classes=config.num_local_experts).transpose(2, 1, 0)

    experts = FlaxMixtralBlocKSparesTop2MLPCollection(config, dtype=jnp.float32, param_dtype=jnp.float32)
    kwargs = dict(expert_mask=expert_mask, hidden_states=hidden_states, routing_weights=routing_weights,
                  batch_size=batch_size, sequence_length=sequence_length, hidden_dim=hidden_dim)
    params = experts.init(jax.random.PRNGKey(2), **kwargs)
    out = experts.apply(params, **kwargs)
    print("all zero:", bool(jnp.all(out == 0)))
