"""Core components of the MAP-Elites algorithm."""
from __future__ import annotations

from functools import partial
from typing import Any, Callable, Optional, Tuple

import jax

from qdax_lite.core.repertoire import MapElitesRepertoire


class MAPElites:
    """Core elements of the MAP-Elites algorithm."""

    def __init__(
        self,
        scoring_function: Callable,
        emitter: Any,
        metrics_function: Callable[[MapElitesRepertoire], Any],
    ) -> None:
        self._scoring_function = scoring_function
        self._emitter = emitter
        self._metrics_function = metrics_function

    @partial(jax.jit, static_argnames=("self",))
    def init(self, init_genotypes, centroids, random_key):
        # score initial genotypes
        fitnesses, descriptors, extra_scores, random_key = self._scoring_function(
            init_genotypes, random_key
        )
        # init the repertoire
        repertoire = MapElitesRepertoire.init(
            genotypes=init_genotypes,
            fitnesses=fitnesses,
            descriptors=descriptors,
            centroids=centroids,
        )
        emitter_state = None
        return repertoire, emitter_state, random_key

    @partial(jax.jit, static_argnames=("self",))
    def update(self, repertoire, emitter_state: Optional[Any], random_key):
        # generate offsprings with the emitter
        genotypes, random_key = self._emitter.emit(
            repertoire, emitter_state, random_key
        )
        # scores the offsprings
        fitnesses, descriptors, extra_scores, random_key = self._scoring_function(
            genotypes, random_key
        )
        # add genotypes in the repertoire
        repertoire = repertoire.add(genotypes, descriptors, fitnesses)
        # update the metrics
        metrics = self._metrics_function(repertoire)
        return repertoire, emitter_state, metrics, random_key

    @partial(jax.jit, static_argnames=("self",))
    def scan_update(
        self,
        carry: Tuple[MapElitesRepertoire, Optional[Any], Any],
        unused: Any,
    ):
        repertoire, emitter_state, random_key = carry
        (repertoire, emitter_state, metrics, random_key,) = self.update(
            repertoire,
            emitter_state,
            random_key,
        )
        return (repertoire, emitter_state, random_key), metrics
