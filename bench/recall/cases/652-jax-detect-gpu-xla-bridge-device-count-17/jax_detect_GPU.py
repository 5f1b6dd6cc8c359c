from jax.lib import xla_bridge

xla_backend_type = xla_bridge.get_backend().platform  # cpu, gpu, tpu
print(f"XLA backend type: {xla_backend_type}")

gpu_count = xla_bridge.device_count() if xla_backend_type == "gpu" else 0
print(f"\nNumber of GPUs found on system: {gpu_count}")
