from typing import Callable, List, Tuple

import jax
from jax import nn as jnn, numpy as jnp
from jaxtyping import Array
from numpyro.distributions import Distribution

from ..models.utils import Bake, JointDistribution


def poisson_likelihood(
    model: Bake,
    data: List[Array],
    log_ref_priors: List[Array],
    ERate_fn: Callable[[Distribution], Array],
) -> Tuple[dict[str, int], JointDistribution, Callable[[Array, Array], Array]]:
    max_size = max([d.shape[0] for d in data])

    data_padded = [
        jnp.pad(d, ((0, max_size - d.shape[0]),) + ((0, 0),) * (d.ndim - 1))
        for d in data
    ]
    mask = [
        jnp.pad(jnp.ones(d.shape[0], dtype=jnp.bool), (0, max_size - d.shape[0]))
        for d in data
    ]
    log_ref_priors_padded = [
        jnp.pad(l, ((0, max_size - l.shape[0]),) + ((0, 0),) * (l.ndim - 1))
        for l in log_ref_priors
    ]

    stacked_data = jnp.stack(data_padded, axis=0)
    stacked_log_ref_priors = jnp.stack(log_ref_priors_padded, axis=0)
    stacked_mask = jnp.stack(mask, axis=0)

    variables, duplicates, model = model.get_dist()  # type: ignore
    variables_index = {key: i for i, key in enumerate(variables.keys())}
    for key, value in duplicates.items():
        variables_index[key] = variables_index[value]

    priors = JointDistribution(*variables.values(), validate_args=True)

    def likelihood_fn(x: Array, _: Array) -> Array:
        mapped_params = {
            name: jax.lax.dynamic_index_in_dim(x, i, keepdims=False)
            for name, i in variables_index.items()
        }

        model_instance: Distribution = model(**mapped_params)

        def single_event_fn(
            carry: Array, input: Tuple[Array, Array, Array]
        ) -> Tuple[Array, None]:
            data, log_ref_prior, mask = input
            safe_data = jnp.where(mask, data, 1.0)
            safe_log_ref_prior = jnp.where(mask, log_ref_prior, 0.0)
            log_prob = jnp.where(
                mask, model_instance.log_prob(safe_data) - safe_log_ref_prior, -jnp.inf
            )
            log_prob_sum = jnn.logsumexp(
                log_prob,
                axis=-1,
                where=~jnp.isneginf(log_prob),
            )
            return carry + log_prob_sum, None

        total_log_likelihood, _ = jax.lax.scan(
            single_event_fn,  # type: ignore
            jnp.zeros(()),
            (stacked_data, stacked_log_ref_priors, stacked_mask),
        )

        expected_rates = ERate_fn(model_instance)
        log_prior = priors.log_prob(x)
        log_likelihood = total_log_likelihood - expected_rates
        log_posterior = log_prior + log_likelihood

        log_posterior = jnp.nan_to_num(
            log_posterior, nan=-jnp.inf, posinf=-jnp.inf, neginf=-jnp.inf
        )

        return log_posterior

    return variables_index, priors, likelihood_fn
