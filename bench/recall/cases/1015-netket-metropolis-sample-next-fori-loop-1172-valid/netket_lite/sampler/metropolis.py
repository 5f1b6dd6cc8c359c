from typing import Any

import jax
from flax import struct
from jax import numpy as jnp


@struct.dataclass
class MetropolisSamplerState:
    σ: jnp.ndarray
    rng: jnp.ndarray
    n_steps_proc: int = 0
    n_accepted_proc: int = 0


class LocalRule:
    def transition(rule, sampler, machine, parameters, state, key, σ):
        # flip one random site of every chain
        sites = jax.random.randint(key, (σ.shape[0],), 0, σ.shape[1])
        σp = σ.at[jnp.arange(σ.shape[0]), sites].multiply(-1)
        return σp, None


@struct.dataclass
class MetropolisSampler:
    n_sites: int = struct.field(pytree_node=False, default=4)
    n_chains_per_rank: int = struct.field(pytree_node=False, default=8)
    n_sweeps: int = struct.field(pytree_node=False, default=4)
    machine_pow: int = struct.field(pytree_node=False, default=2)
    rule: Any = struct.field(pytree_node=False, default=LocalRule())

    def init_state(sampler, seed):
        σ = jnp.ones((sampler.n_chains_per_rank, sampler.n_sites))
        return MetropolisSamplerState(σ=σ, rng=jax.random.PRNGKey(seed))

    def _sample_next(sampler, machine, parameters, state):
        def loop_body(i, s):
            # 1 to propagate for next iteration, 1 for uniform rng and n_chains for transition kernel
            s["key"], key1, key2 = jax.random.split(s["key"], 3)

            σp, log_prob_correction = sampler.rule.transition(
                sampler, machine, parameters, state, key1, s["σ"]
            )
            proposal_log_prob = sampler.machine_pow * machine.apply(parameters, σp).real

            uniform = jax.random.uniform(key2, shape=(sampler.n_chains_per_rank,))
            if log_prob_correction is not None:
                do_accept = uniform < jnp.exp(
                    proposal_log_prob - s["log_prob"] + log_prob_correction
                )
            else:
                do_accept = uniform < jnp.exp(proposal_log_prob - s["log_prob"])

            # do_accept must match ndim of proposal and state (which is 2)
            s["σ"] = jnp.where(do_accept.reshape(-1, 1), σp, s["σ"])
            s["accepted"] += do_accept.sum()

            s["log_prob"] = jax.numpy.where(
                do_accept.reshape(-1), proposal_log_prob, s["log_prob"]
            )

            return s

        new_rng, rng = jax.random.split(state.rng)

        s = {
            "key": rng,
            "σ": state.σ,
            "log_prob": sampler.machine_pow * machine.apply(parameters, state.σ).real,
            # for logging
            "accepted": state.n_accepted_proc,
        }
        s = jax.lax.fori_loop(0, sampler.n_sweeps, loop_body, s)

        new_state = state.replace(
            rng=new_rng,
            σ=s["σ"],
            n_accepted_proc=s["accepted"],
            n_steps_proc=state.n_steps_proc
            + sampler.n_sweeps * sampler.n_chains_per_rank,
        )

        return new_state, new_state.σ
