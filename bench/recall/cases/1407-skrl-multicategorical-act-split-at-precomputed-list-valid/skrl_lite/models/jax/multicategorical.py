from typing import Any, Mapping, Optional, Tuple, Union

from functools import partial

import jax
import jax.numpy as jnp
import numpy as np

from skrl_lite import config


# https://jax.readthedocs.io/en/latest/faq.html#strategy-1-jit-compiled-helper-function
@partial(jax.jit, static_argnames=("unnormalized_log_prob"))
def _categorical(net_output,
                 unnormalized_log_prob,
                 taken_actions,
                 key):
    # normalize
    if unnormalized_log_prob:
        logits = net_output - jax.scipy.special.logsumexp(net_output, axis=-1, keepdims=True)
    else:
        probs = net_output / net_output.sum(-1, keepdims=True)
        eps = jnp.finfo(probs.dtype).eps
        logits = jnp.log(probs.clip(min=eps, max=1 - eps))

    # sample actions
    actions = jax.random.categorical(key, logits, axis=-1, shape=None)

    # log of the probability density function
    taken_actions = actions if taken_actions is None else taken_actions.astype(jnp.int32).reshape(-1)
    log_prob = jax.nn.log_softmax(logits)[jnp.arange(taken_actions.shape[0]), taken_actions]

    return actions.reshape(-1, 1), log_prob.reshape(-1, 1)


class MultiCategoricalMixin:
    def __init__(self, unnormalized_log_prob: bool = True, reduction: str = "sum", role: str = "") -> None:
        self._unnormalized_log_prob = unnormalized_log_prob

        if reduction not in ["mean", "sum", "prod", "none"]:
            raise ValueError("reduction must be one of 'mean', 'sum', 'prod' or 'none'")
        self._reduction = jnp.mean if reduction == "mean" else jnp.sum if reduction == "sum" \
            else jnp.prod if reduction == "prod" else None

        self._i = 0
        self._key = config.jax.key

        self._action_space_nvec = np.cumsum(self.action_space.nvec).tolist()

        self._action_space_shape = self._get_space_size(self.action_space, number_of_elements=False)

    def act(self,
            inputs: Mapping[str, Union[Union[np.ndarray, jax.Array], Any]],
            role: str = "",
            params: Optional[jax.Array] = None) -> Tuple[jax.Array, Union[jax.Array, None], Mapping[str, Union[jax.Array, Any]]]:
        self._i += 1
        subkey = jax.random.fold_in(self._key, self._i)
        inputs["key"] = subkey

        # map from states/observations to normalized probabilities or unnormalized log probabilities
        net_output, outputs = self.apply(self.state_dict.params if params is None else params, inputs, role)

        # split inputs
        net_outputs = jnp.split(net_output, self._action_space_nvec, axis=-1)
        if "taken_actions" in inputs:
            taken_actions = jnp.split(inputs["taken_actions"], self._action_space_shape, axis=-1)
        else:
            taken_actions = [None] * self._action_space_shape

        # compute actions and log_prob
        actions, log_prob = [], []
        for _net_output, _taken_actions in zip(net_outputs, taken_actions):
            _actions, _log_prob = _categorical(_net_output,
                                               self._unnormalized_log_prob,
                                               _taken_actions,
                                               subkey)
            actions.append(_actions)
            log_prob.append(_log_prob)

        actions = jnp.concatenate(actions, axis=-1)
        log_prob = jnp.concatenate(log_prob, axis=-1)

        if self._reduction is not None:
            log_prob = self._reduction(log_prob, axis=-1)
        if log_prob.ndim != actions.ndim:
            log_prob = jnp.expand_dims(log_prob, -1)

        outputs["net_output"] = net_output
        outputs["stddev"] = jnp.full_like(log_prob, jnp.nan)
        return actions, log_prob, outputs
