# Licence: MIT License
# Copyright: Xavier Hinaut (2018) <xavier.hinaut@inria.fr>

import itertools as it
from functools import partial
from math import comb
from typing import Optional, Union

import jax
import jax.numpy as jnp

from ..node import Node


class NVAR(Node):
    #: Maximum delay of inputs (:math:`k`).
    delay: int
    #: Order of the non-linear monomials (:math:`n`).
    order: int
    #: Strides between delayed inputs, by default 1 (:math:`s`).
    strides: int

    def __init__(
        self,
        delay: int,
        order: int,
        strides: int = 1,
        input_dim: Optional[int] = None,
        name: Optional[str] = None,
    ):
        self._monomial_idx = None
        self.delay = delay
        self.order = order
        self.strides = strides
        self.name = name
        self.state = {}
        self.input_dim = input_dim
        self.output_dim = None

    def initialize(self, x, y=None):

        # set input_dim
        self._set_input_dim(x)

        order = self.order
        delay = self.delay
        strides = self.strides

        linear_dim = delay * self.input_dim
        # number of non linear components is (d + n - 1)! / (d - 1)! n!
        # i.e. number of all unique monomials of order n made from the
        # linear components.
        nonlinear_dim = comb(linear_dim + order - 1, order)

        output_dim = int(linear_dim + nonlinear_dim)

        self.output_dim = output_dim

        # for each monomial created in the non linear part, indices
        # of the n components involved, n being the order of the
        # monomials. Pre-compute them to improve efficiency.
        idx = jnp.array(list(it.combinations_with_replacement(jnp.arange(linear_dim), order)))

        self._monomial_idx = idx

        self.state = {
            "out": jnp.zeros((self.output_dim,)),
            # to store the k*s last inputs, k being the delay and s the strides
            "store": jnp.zeros((delay * strides, self.input_dim)),
        }
        self.initialized = True

    @partial(jax.jit, static_argnums=(0,))
    def _step(self, state, x):
        store = state["store"]
        strides = self.strides
        idxs = self._monomial_idx
        output_dim = self.output_dim

        # store the current input
        new_store = jnp.roll(store, 1, axis=0)
        new_store = new_store.at[0].set(x)

        output = jnp.zeros((output_dim,))

        # select all previous inputs, including the current, with strides
        linear_feats = jnp.ravel(new_store[::strides, :])
        linear_len = linear_feats.shape[0]

        output = output.at[:linear_len].set(linear_feats)

        # select monomial terms and compute them
        output = output.at[linear_len:].set(jnp.prod(linear_feats[idxs], axis=1))

        return {"out": output, "store": new_store}
