import jax
import jax.numpy as jnp
import numpy as np

from herculens_lite.Coordinates.coord_transforms import Coordinates

if __name__ == "__main__":
    pix_scl = 0.08  # arcsec / pixel
    coords = Coordinates(np.array([[-pix_scl, 0.0], [0.0, pix_scl]]), 4.0, -4.0)

    # pixel position of a lensed image, differentiated in its sky coordinates
    def pixel_x(ra, dec):
        x, y = coords.map_coord2pix(ra, dec)
        return x

    try:
        print("d x / d ra:", jax.grad(pixel_x)(jnp.array(0.5), jnp.array(-0.2)))
    except Exception as e:
        print(f"{type(e).__name__}: {str(e).splitlines()[0][:80]}")
