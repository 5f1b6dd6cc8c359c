import jax
import jax.numpy as jnp

from navix_lite.agents.dreamer import Dreamer, DreamerHParams

if __name__ == "__main__":
    jax.config.update("jax_debug_key_reuse", True)
    hp = DreamerHParams()
    agent = Dreamer(hp)
    k = jax.random.split(jax.random.key(0), 6)
    n_act, z_size = 3, 2
    feat_size = hp.recurrent_size + z_size
    model_params = {
        "w_h": jax.random.normal(k[0], (hp.recurrent_size, hp.recurrent_size)),
        "w_a": jax.random.normal(k[1], (n_act, hp.recurrent_size)),
        "w_r": jax.random.normal(k[2], (feat_size,)),
        "w_t": jax.random.normal(k[3], (feat_size,)),
    }
    actor_params = {"w": jax.random.normal(k[4], (feat_size, n_act))}
    start_feats = jax.random.normal(k[5], (8, feat_size))
    try:
        out = jax.jit(agent.update_actor)(
            model_params, actor_params, start_feats, 0.0, 1.0, jax.random.key(1)
        )
        print("KeyReuseError: False")
    except Exception as e:  # jax.errors.KeyReuseError
        print(f"{type(e).__name__}: {str(e).splitlines()[0][:70]}")
