import time

import jax.numpy as jnp
import numpy as np
from jax import jit


def jax_cosine(a, b):
    return 1.0 - jnp.dot(a, b) / (jnp.linalg.norm(a) * jnp.linalg.norm(b))


# (name, descriptors) pairs of known faces
database = [
    ("alice", [np.ones(4), np.arange(4.0)]),
    ("bob", [np.array([1.0, -1.0, 1.0, -1.0]), np.array([0.0, 1.0, 0.0, 1.0])]),
]


@jit
def match_faces3(desc):
        distances = np.empty((len(desc), len(database)))
        time1 = time.time()
        for i, descr in enumerate(desc):
            for j, identity in enumerate(database):
                dist = []
                for k, id_desc in enumerate(identity[1]):
                    dist.append(jax_cosine(descr, id_desc))
                distances[i][j] = dist[jnp.argmin(jnp.asarray(dist))]
        time2 = time.time() - time1
        print("time2",time2)
        distances=distances.tolist()
        return jnp.asarray(distances)


if __name__ == "__main__":
    desc = jnp.array([[1.0, 0.9, 1.1, 1.0], [0.0, 1.0, 0.1, 0.9]])
    print(match_faces3(desc))
