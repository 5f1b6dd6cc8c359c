import jax
import jax.numpy as jnp

from jasmine_lite.models.dynamics import DynamicsMaskGIT

if __name__ == "__main__":
    model = DynamicsMaskGIT()
    vid_embed_BTNM = jnp.zeros((2, 3, 4, 8))
    try:
        with jax.debug_key_reuse(True):
            out, _ = model(vid_embed_BTNM, jax.random.key(0))
        print("no key reuse", out.shape)
    except Exception as exc:
        print(type(exc).__name__, exc)
