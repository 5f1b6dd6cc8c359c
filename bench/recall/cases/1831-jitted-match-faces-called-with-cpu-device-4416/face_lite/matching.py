import numpy as np
import jax.numpy as jnp

database = [("alice", [np.ones(4, np.float32), np.full(4, 0.5, np.float32)]),
            ("bob", [np.arange(4, dtype=np.float32)])]


def cosine_dist(a, b):
    return 1.0 - jnp.dot(a, b) / (jnp.linalg.norm(a) * jnp.linalg.norm(b))


def match_faces3(desc):
        distances = np.empty((len(desc), len(database)))
        for i, descr in enumerate(desc):
            for j, identity in enumerate(database):
                dist = []
                for k, id_desc in enumerate(identity[1]):
                    dist.append(cosine_dist(descr, id_desc))
                distances[i][j] = dist[jnp.argmin(jnp.asarray(dist))]
        distances=distances.tolist()
        return jnp.asarray(distances)
