from autoray_lite.autoray import do, jax_random_get_key, jax_random_seed

__all__ = ["do", "jax_random_get_key", "jax_random_seed"]
