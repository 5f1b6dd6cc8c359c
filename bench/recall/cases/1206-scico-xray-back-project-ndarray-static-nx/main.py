import numpy as np

import jax.numpy as jnp

from scico_lite.linop.xray import Parallel2dProjector

if __name__ == "__main__":
    N = 32
    angles = np.linspace(0, np.pi, 10, endpoint=False)
    projector = Parallel2dProjector((N, N), angles)
    im = jnp.ones((N, N))
    y = projector.project(im)
    try:
        HTy = projector.back_project(y)
        print("back projection shape:", HTy.shape)
    except ValueError as e:
        print("ValueError:", str(e).splitlines()[0])
