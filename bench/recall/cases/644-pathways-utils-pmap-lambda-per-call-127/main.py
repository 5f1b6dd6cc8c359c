import jax
import jax.numpy as jnp


def _test_slice_execution(num_devices):
  """Runs a trivial computation on every device of the slice."""
  arr = jnp.arange(num_devices, dtype=jnp.float32)
  result = jax.pmap(lambda x: x + 1)(arr)
  return bool(jnp.all(result == arr + 1))


if __name__ == "__main__":
  for _ in range(5):
    assert _test_slice_execution(jax.local_device_count())
  print("ok")
