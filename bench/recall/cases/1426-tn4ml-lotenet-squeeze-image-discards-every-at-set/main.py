import jax.numpy as jnp

from tn4ml_lite.models import squeeze_image

if __name__ == "__main__":
    image = jnp.arange(1.0, 37.0).reshape(6, 6, 1)
    squeezed = squeeze_image(image, k=3)
    print("shape:", squeezed.shape)
    print("all zeros:", bool((squeezed == 0).all()))
