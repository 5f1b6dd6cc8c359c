import jax.numpy as jnp

from image_lite import resize

if __name__ == "__main__":
    image = jnp.arange(16.0).reshape(4, 4)
    try:
        out = resize(image, [2, 2], "nearest")
        print("resized:", out.shape)
    except ValueError as e:
        print("ValueError:", str(e).splitlines()[0])
