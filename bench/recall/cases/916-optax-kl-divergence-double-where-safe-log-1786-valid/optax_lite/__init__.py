from optax_lite.losses import kl_divergence
