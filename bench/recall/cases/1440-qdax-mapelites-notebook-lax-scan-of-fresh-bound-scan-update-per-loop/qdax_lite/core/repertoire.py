"""Stand-in for qdax's MapElitesRepertoire: the best fitness per centroid."""
from __future__ import annotations

import flax.struct
import jax
import jax.numpy as jnp


class MapElitesRepertoire(flax.struct.PyTreeNode):
    genotypes: jax.Array
    fitnesses: jax.Array
    centroids: jax.Array

    @classmethod
    def init(cls, genotypes, fitnesses, descriptors, centroids):
        empty = cls(
            genotypes=jnp.zeros((centroids.shape[0],) + genotypes.shape[1:]),
            fitnesses=jnp.full((centroids.shape[0],), -jnp.inf),
            centroids=centroids,
        )
        return empty.add(genotypes, descriptors, fitnesses)

    def add(self, genotypes, descriptors, fitnesses):
        dists = jnp.sum((descriptors[:, None, :] - self.centroids[None]) ** 2, axis=-1)
        cells = jnp.argmin(dists, axis=1)
        best = jnp.full_like(self.fitnesses, -jnp.inf).at[cells].max(fitnesses)
        better = best > self.fitnesses
        winner = jnp.argmax(
            (cells[None, :] == jnp.arange(self.fitnesses.shape[0])[:, None])
            & (fitnesses[None, :] == best[:, None]), axis=1)
        return self.replace(
            genotypes=jnp.where(better[:, None], genotypes[winner], self.genotypes),
            fitnesses=jnp.where(better, best, self.fitnesses),
        )
