"""Base classes for Epistemic Neural Network design in JAX / Haiku."""
import dataclasses
from typing import Any, Callable

Array = Any
Index = Any
Output = Any


@dataclasses.dataclass
class EpistemicNetwork:
  """Convenient pairing of Haiku transformed function and index sampler."""
  apply: Callable[..., Output]
  init: Callable[..., Any]
  indexer: Callable[..., Index]
