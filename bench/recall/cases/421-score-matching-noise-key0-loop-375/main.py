from functools import partial
from typing import Callable, NamedTuple

import jax
import jax.numpy as jnp
from jax import random
from jax.lax import fori_loop


class TrainState(NamedTuple):
    apply_fn: Callable


class SlicedScoreMatching:
    def __init__(self, num_noise_models=4, sigma=1.0, gamma=0.95):
        self.num_noise_models = num_noise_models
        self.sigma = sigma
        self.gamma = gamma

    def _loss(self, score_network):
        return lambda x, v: jnp.sum(score_network(x) * v, axis=-1)

    def _noise_conditional_loop_body(self, i, obj, state, params, x, random_vectors, sigmas):
        r"""
        Sum objective function with noise perturbations.

        Inputs are perturbed by Gaussian random noise to improve performance of score
        matching.
        """
        # Perturb the inputs with Gaussian noise
        x_perturbed = x + sigmas[i] * random.normal(random.key(0), x.shape)
        obj = (
            obj
            + sigmas[i] ** 2
            * self._loss(lambda x_: state.apply_fn({"params": params}, x_))(
                x_perturbed, random_vectors
            ).mean()
        )
        return obj

    def _noise_conditional_objective(self, state, params, x, random_vectors, sigmas):
        body = partial(
            self._noise_conditional_loop_body,
            state=state,
            params=params,
            x=x,
            random_vectors=random_vectors,
            sigmas=sigmas,
        )
        return fori_loop(0, self.num_noise_models, body, 0.0)


if __name__ == "__main__":
    ssm = SlicedScoreMatching()
    gammas = ssm.gamma ** jnp.arange(ssm.num_noise_models)
    sigmas = ssm.sigma * gammas
    state = TrainState(apply_fn=lambda variables, x_: x_)
    x = jnp.zeros((8, 2))
    v = jnp.ones((8, 2))
    terms = [
        ssm._noise_conditional_loop_body(i, 0.0, state, {}, x, v, sigmas) / sigmas[i] ** 3
        for i in range(2)
    ]
    print(ssm._noise_conditional_objective(state, {}, x, v, sigmas))
    print("same noise for every noise level:", bool(jnp.allclose(terms[0], terms[1])))
