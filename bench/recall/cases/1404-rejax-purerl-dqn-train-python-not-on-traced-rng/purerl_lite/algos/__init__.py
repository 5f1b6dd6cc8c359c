from purerl_lite.algos.dqn.core import DQNConfig
from purerl_lite.algos.dqn.dqn import DQN

__all__ = ["DQN", "DQNConfig"]
