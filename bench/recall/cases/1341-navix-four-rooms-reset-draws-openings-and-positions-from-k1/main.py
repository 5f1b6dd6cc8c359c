import jax

from navix_lite.environments.four_rooms import FourRooms

if __name__ == "__main__":
    jax.config.update("jax_debug_key_reuse", True)
    env = FourRooms(height=9, width=9)
    try:
        state = jax.jit(env._reset)(jax.random.key(0))
        print("KeyReuseError: False", state["player"], state["goal"])
    except Exception as e:  # jax.errors.KeyReuseError
        print(f"{type(e).__name__}: {str(e).splitlines()[0][:70]}")
