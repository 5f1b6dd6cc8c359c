"""Stein variational inference (reduced from numpyro.contrib.einstein.steinvi)."""

from collections import namedtuple

import jax
import jax.numpy as jnp
from jax import random

SteinVIState = namedtuple("SteinVIState", ["params", "rng_key", "loss_temperature"])
SteinVIRunResult = namedtuple("SteinRunResult", ["params", "state", "losses"])


class SteinVI:
    """Stein variational gradient descent on a set of particles (the attractive term only)."""

    def __init__(self, log_density, num_stein_particles, step_size=0.1,
                 loss_temperature=1.0, repulsion_temperature=1.0):
        self.log_density = log_density
        self.num_stein_particles = num_stein_particles
        self.step_size = step_size
        self.loss_temperature = loss_temperature
        self.repulsion_temperature = repulsion_temperature

    def _svgd_loss_and_grads(self, rng_key, params, loss_temperature):
        def loss(p):
            return -loss_temperature * jnp.sum(jax.vmap(self.log_density)(p))

        return jax.value_and_grad(loss)(params)

    def init(self, rng_key, init_params):
        return SteinVIState(init_params, rng_key, self.loss_temperature)

    def update(self, state):
        rng_key, rng_key_step = random.split(state.rng_key)
        loss_val, grads = self._svgd_loss_and_grads(rng_key_step, state.params, state.loss_temperature)
        return SteinVIState(state.params - self.step_size * grads, rng_key, state.loss_temperature), loss_val

    def setup_run(self, rng_key, num_steps, init_params):
        state = self.init(rng_key, init_params)

        def step(info):
            state, _ = info
            return self.update(state)

        def collect(info):
            return info[1]

        def extract_state(info):
            return info[0]

        info_init = (state, jnp.zeros(()))
        return step, collect, extract_state, info_init

    def run(self, rng_key, num_steps, init_params):
        step, collect, extract_state, info_init = self.setup_run(rng_key, num_steps, init_params)

        @jax.jit
        def body(info, _):
            info = step(info)
            return info, collect(info)

        last, losses = jax.lax.scan(body, info_init, None, length=num_steps)
        state = extract_state(last)
        return SteinVIRunResult(state.params, state, losses)


class ASVGD(SteinVI):
    """Annealed Stein variational gradient descent: the loss temperature follows a cyclical schedule."""

    def __init__(self, log_density, num_stein_particles, num_cycles=10, trans_speed=10, **kwargs):
        self.num_cycles = num_cycles
        self.trans_speed = trans_speed
        super().__init__(log_density, num_stein_particles, **kwargs)

    @staticmethod
    def _cyclical_annealing(num_steps: int, num_cycles: int, trans_speed: int):
        """Cyclical annealing schedule as in eq. 4 of [1].

        **References** (MLA)

        1. D'Angelo, Francesco, and Vincent Fortuin. "Annealed Stein Variational Gradient Descent."
            Third Symposium on Advances in Approximate Bayesian Inference, 2021.

        :param num_steps: The total number of steps. Corresponds to $T$ in eq. 4 of [1].
        :param num_cycles: The total number of cycles. Corresponds to $C$ in eq. 4 of [1].
        :param trans_speed: Speed of transition between two phases. Corresponds to $p$ in eq. 4 of [1].
        """
        norm = float(num_steps + 1) / float(num_cycles)
        cycle_len = num_steps // num_cycles
        last_start = (num_cycles - 1) * cycle_len

        def cycle_fn(t):
            last_cycle = t // last_start
            return (1 - last_cycle) * (
                ((t % cycle_len) + 1) / norm
            ) ** trans_speed + last_cycle

        return cycle_fn

    def setup_run(self, rng_key, num_steps, init_params):
        cyc_fn = ASVGD._cyclical_annealing(num_steps, self.num_cycles, self.trans_speed)

        (
            istep,
            icol,
            iext,
            iinit,
        ) = super().setup_run(
            rng_key,
            num_steps,
            init_params,
        )

        def step(info):
            t, iinfo = info[0], info[-1]
            state, loss = iinfo
            state = state._replace(loss_temperature=cyc_fn(t) / float(self.num_stein_particles))
            return (t + 1, istep((state, loss)))

        def collect(info):
            _, iinfo = info
            return icol(iinfo)

        def extract_state(info):
            _, iinfo = info
            return iext(iinfo)

        info_init = (0, iinit)
        return step, collect, extract_state, info_init
