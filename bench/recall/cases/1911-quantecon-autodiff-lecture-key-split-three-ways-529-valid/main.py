import jax

from lecture.data import simulate_data

if __name__ == "__main__":
    key = jax.random.key(42)
    try:
        with jax.debug_key_reuse(True):
            x, y = simulate_data(key)
        print("no reuse detected")
    except jax.errors.KeyReuseError as e:
        print("KeyReuseError:", str(e).splitlines()[0])
