from typing import Any

import numpy as np


class StateDict:
    def __init__(self, params: Any) -> None:
        self.params = params


class Model:
    def __init__(self, observation_space, action_space, device=None, **kwargs) -> None:
        self.observation_space = observation_space
        self.action_space = action_space
        self.device = device
        self.num_actions = int(np.sum(action_space.nvec))
        self.state_dict = None

    def _get_space_size(self, space, number_of_elements: bool = True) -> int:
        if number_of_elements:
            return int(np.sum(space.nvec))
        return space.nvec.shape[0]

    def init_state_dict(self, params) -> None:
        self.state_dict = StateDict(params)
