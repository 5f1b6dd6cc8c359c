import jax.numpy as jnp

from dsps_lite.sed import _get_linspace_time_tables
from dsps_lite.cosmology import TODAY


if __name__ == "__main__":
    t_table, lgt_table = _get_linspace_time_tables()
    print("x64 enabled:", jnp.zeros(1).dtype == jnp.float64)
    print("TODAY dtype:", TODAY.dtype)
    print("t_table dtype:", t_table.dtype)
