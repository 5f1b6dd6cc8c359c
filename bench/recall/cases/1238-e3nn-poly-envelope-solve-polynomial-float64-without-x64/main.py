import jax.numpy as jnp

from e3nn_lite._src.radial import poly_envelope

if __name__ == "__main__":
    # smooth cutoff of a message-passing network's radial features (n0=5, n1=2)
    envelope = poly_envelope(5, 2)
    r = jnp.linspace(0.0, 1.2, 7)
    print("envelope:", envelope(r))
