from optax_lite import contrib
