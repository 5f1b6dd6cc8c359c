from typing import Any, Callable, NamedTuple, TypeVar

from jax.example_libraries import optimizers

OptState = TypeVar("OptState")


class Optimizer(NamedTuple):
  init: Callable[[Any], OptState]
  update: Callable[[int, Any, OptState], OptState]
  get: Callable[[OptState], Any]


def make_optimizer():
  return Optimizer(*optimizers.adam(step_size=1e-3))
