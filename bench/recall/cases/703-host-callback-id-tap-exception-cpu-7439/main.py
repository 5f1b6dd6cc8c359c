from jax.experimental import host_callback
import jax

def callback(val, transform):
  raise RuntimeError('Error!')

if __name__ == "__main__":
  try:
    host_callback.id_tap(callback, 1.2)
    host_callback.barrier_wait()
  except jax.experimental.host_callback.CallbackException as e:
    print(e)
