from jnp_lite.lax_numpy import array_equal
