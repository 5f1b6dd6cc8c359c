import jax
import numpy as np
from jax import jit

from face_lite.matching import match_faces3

descriptors = np.random.RandomState(0).rand(2, 4).astype(np.float32)

if __name__ == "__main__":
    jax.device_put(descriptors,jax.devices()[0])
    matches_jit = jit(match_faces3)
    try:
        matches_jit(jax.devices()[0])
    except TypeError as e:
        print("TypeError:", e)
