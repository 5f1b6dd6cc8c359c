from typing import Any, Dict, NamedTuple, Optional

import jax

Config = Dict[str, Any]


class ListenerLossOutputs(NamedTuple):
  loss: jax.Array
  accuracy: jax.Array
  probs: jax.Array
  stats: Config
  reward: Optional[jax.Array] = None
