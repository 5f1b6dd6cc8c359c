import jax
import jax.numpy as jnp

n_clusters = 3


@jax.jit
def update_centroids(X, labels, centroids):
    for j in range(n_clusters):
        centroids = centroids.at[j].set(X[labels == j].mean(axis=0))
    return centroids


if __name__ == "__main__":
    X = jax.random.normal(jax.random.PRNGKey(0), (100, 2))
    labels = jnp.arange(100) % n_clusters
    print(update_centroids(X, labels, jnp.zeros((n_clusters, 2))))
