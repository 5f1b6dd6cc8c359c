"""Batch 11's key-flow misses by mechanism (issue 22, branch keyA): a key that leaves a
function or a loop step after it was consumed, and comes back to be consumed again.

* a ``lax.scan``/``fori_loop``/``while_loop`` body that takes its key out of the carry,
  consumes it and returns it unchanged as the new carry: every step draws the same
  numbers (recall case 1106, Mava's ff_isac act step, https://github.com/instadeepai/Mava/pull/1096);
* ``pi.sample(seed=key)`` of a distribution the model cannot place (a policy head's
  ``actor.apply(params, obs)``): distrax's and TFP's sampling signature draws from ``seed``;
* a function that returns a key it consumed (drew from it, or gave it as the initial carry
  of a loop whose body carries a new key) to a caller that keeps it as state
  (``self.key``): the next call draws the same numbers (recall case 1104, sbx's TD3
  ``_train``, https://github.com/araffin/sbx/pull/46).

Each INVALID tree was run with JAX 0.10.2 (the draws of every step, or of two calls,
equal; the stored key unchanged); the VALID twins are the fixed code and stay silent."""

from __future__ import annotations

from tests.project_files import lint_files

CARRY_MSG = (
    "`{k}` comes in with the {prim} carry, is consumed by `{how}` here and returned unchanged as the new "
    "carry: every step is handed the same key and draws the same random numbers. Split it each step "
    "(`{k}, sub = jax.random.split({k})`), pass `sub` here and return the new `{k}`"
)

# the shape of recall case 1106: the policy head's distribution is unknown to the model
ACT = """\
from typing import Any, Callable

import jax
from jax import lax


def make_rollout(actor_net, step: Callable, rollout_length: int):
    def act(carry, _: Any):
        actor_params, obs, env_state, key = carry
        pi = actor_net.apply(actor_params, obs)
        action = pi.sample(seed=key)
        next_obs, env_state = step(action, obs, env_state)
        return (actor_params, next_obs, env_state, key), action

    return jax.jit(lambda state: lax.scan(act, state, None, length=rollout_length))
"""

ACT_OK = """\
from typing import Any, Callable

import jax
from jax import lax


def make_rollout(actor_net, step: Callable, rollout_length: int):
    def act(carry, _: Any):
        actor_params, obs, env_state, key = carry
        key, policy_key = jax.random.split(key)
        pi = actor_net.apply(actor_params, obs)
        action = pi.sample(seed=policy_key)
        next_obs, env_state = step(action, obs, env_state)
        return (actor_params, next_obs, env_state, key), action

    return jax.jit(lambda state: lax.scan(act, state, None, length=rollout_length))
"""

# a fori_loop body unpacking a tuple carry; a scan whose carry is the key itself
NOISE = """\
import jax
import jax.numpy as jnp


def perturb(x, n_steps):
    def body(i, carry):
        x, rng = carry
        x = x + jax.random.uniform(rng, x.shape)
        return x, rng

    return jax.lax.fori_loop(0, n_steps, body, (x, jax.random.PRNGKey(0)))


def walk(key, xs):
    def step(key, x):
        return key, x + jax.random.normal(key, x.shape)

    return jax.lax.scan(step, key, xs)[1]
"""

NOISE_OK = """\
import jax
import jax.numpy as jnp


def perturb(x, n_steps):
    def body(i, carry):
        x, rng = carry
        rng, sub = jax.random.split(rng)
        x = x + jax.random.uniform(sub, x.shape)
        return x, rng

    return jax.lax.fori_loop(0, n_steps, body, (x, jax.random.PRNGKey(0)))


def walk(key, xs):
    def step(key, x):
        key, sub = jax.random.split(key)
        return key, x + jax.random.normal(sub, x.shape)

    return jax.lax.scan(step, key, xs)[1]


def draw_once(key, x):
    def step(carry, _):
        x, key = carry
        return (x + jax.random.normal(key, x.shape), key), None

    # one step: the key is consumed once
    return jax.lax.scan(step, (x, key), None, length=1)[0]


def seeded(dist_fn, x):
    # `seed=` given an integer, not a key: nothing the model holds as a key
    return dist_fn(x).sample(seed=0)
"""

# a helper of the file that samples an unknown distribution with `seed=key`, called twice
HELPER = """\
import jax


def act(pi, key):
    return pi.sample(seed=key)


def rollout(net, params, obs, key):
    pi = net.apply(params, obs)
    a1 = act(pi, key)
    a2 = act(pi, key)
    return a1, a2
"""

HELPER_OK = """\
import jax


def act(pi, key):
    return pi.sample(seed=key)


def rollout(net, params, obs, key):
    pi = net.apply(params, obs)
    k1, k2 = jax.random.split(key)
    a1 = act(pi, k1)
    a2 = act(pi, k2)
    return a1, a2
"""

# the shape of recall case 1104: the jitted `_train` hands the loop its key in a dict
# carry, the body carries a new one, and `_train` returns the key it was given
TD3 = """\
from functools import partial

import jax
import jax.numpy as jnp


class TD3:
    def __init__(self, params, seed=0):
        self.params = params
        self.key = jax.random.PRNGKey(seed)

    def train(self, batch, gradient_steps: int):
        self.params, self.key, loss = self._train(gradient_steps, batch, self.params, self.key)
        return loss

    @staticmethod
    @jax.jit
    def update(params, batch, key):
        key, noise_key = jax.random.split(key)
        noise = jax.random.normal(noise_key, batch.shape)
        return params - 0.1 * (batch + noise).mean(), key

    @classmethod
    @partial(jax.jit, static_argnames=["cls", "gradient_steps"])
    def _train(cls, gradient_steps, batch, params, key):
        carry = {"params": params, "key": key}

        def one_update(i, carry):
            key = carry["key"]
            params, key = cls.update(carry["params"], batch, key)
            return {"params": params, "key": key}

        update_carry = jax.lax.fori_loop(0, gradient_steps, one_update, carry)
        return update_carry["params"], key, update_carry["params"].sum()
"""

TD3_OK = TD3.replace('return update_carry["params"], key,', 'return update_carry["params"], update_carry["key"],')

# a jitted function of the module that draws from its key and hands it back; the
# class keeps it in `self.rng`
EXPLORER = """\
import jax
import jax.numpy as jnp


@jax.jit
def explore(obs, rng):
    noise = 0.1 * jax.random.normal(rng, obs.shape)
    return obs + noise, rng


class Explorer:
    def __init__(self, seed):
        self.rng = jax.random.PRNGKey(seed)

    def act(self, obs):
        action, self.rng = explore(obs, self.rng)
        return action
"""

EXPLORER_OK = """\
import jax
import jax.numpy as jnp


@jax.jit
def explore(obs, rng):
    rng, noise_rng = jax.random.split(rng)
    noise = 0.1 * jax.random.normal(noise_rng, obs.shape)
    return obs + noise, rng


@jax.jit
def explore_once(obs, rng):
    # the caller throws the returned key away
    return obs + jax.random.normal(rng, obs.shape), rng


class Explorer:
    def __init__(self, seed):
        self.rng = jax.random.PRNGKey(seed)

    def act(self, obs):
        action, self.rng = explore(obs, self.rng)
        return action

    def probe(self, obs):
        self.rng, sub = jax.random.split(self.rng)
        action, _ = explore_once(obs, sub)
        return action
"""


def test_scan_body_returns_the_consumed_carry_key(tmp_path, monkeypatch):
    # recall case 1106 (https://github.com/instadeepai/Mava/pull/1096): an unknown policy head sampled
    got = lint_files(tmp_path, monkeypatch, {"rl/act.py": ACT, "rl/noise.py": NOISE}, select="JAX301")
    assert got == [
        ("JAX301", "rl/act.py", 11, 18, CARRY_MSG.format(k="key", prim="lax.scan", how="pi.sample(seed=...)")),
        ("JAX301", "rl/noise.py", 8, 17, CARRY_MSG.format(k="rng", prim="lax.fori_loop", how="random.uniform")),
        ("JAX301", "rl/noise.py", 16, 25, CARRY_MSG.format(k="key", prim="lax.scan", how="random.normal")),
    ]


def test_scan_body_that_splits_its_carry_key_is_silent(tmp_path, monkeypatch):
    got = lint_files(tmp_path, monkeypatch, {"rl/act.py": ACT_OK, "rl/noise.py": NOISE_OK}, select="JAX301")
    assert got == []


def test_helper_sampling_an_unknown_distribution_consumes_its_key(tmp_path, monkeypatch):
    got = lint_files(tmp_path, monkeypatch, {"rl/policy.py": HELPER}, select="JAX301")
    assert got == [
        ("JAX301", "rl/policy.py", 11, 10,
         "`key` was already consumed by `act()` on line 10: both calls get the same random bits. Split it "
         "first, e.g. `k1, k2 = jax.random.split(key)`, and give each call its own key"),
    ]
    assert lint_files(tmp_path, monkeypatch, {"rl/policy.py": HELPER_OK}, select="JAX301") == []


RETURN_MSG = (
    "`{k}` is returned to the caller, but {how} on line {line} already consumed it: `{caller}` keeps it as "
    "`{kept}`, and its next use of that key draws the same random numbers again. Return the key that was "
    "kept back (`{k}, sub = jax.random.split({k})` before drawing with `sub`, or the key the loop carried out)"
)


def test_function_returns_a_consumed_key_the_caller_keeps(tmp_path, monkeypatch):
    # recall case 1104 (https://github.com/araffin/sbx/pull/46): the loop's carried key is not returned
    got = lint_files(tmp_path, monkeypatch, {"agent/td3.py": TD3, "agent/explorer.py": EXPLORER},
                     select="JAX301")
    assert got == [
        ("JAX301", "agent/explorer.py", 8, 25, RETURN_MSG.format(
            k="rng", how="`random.normal`", line=7, caller="act", kept="self.rng")),
        ("JAX301", "agent/td3.py", 34, 40, RETURN_MSG.format(
            k="key", how="the `fori_loop` (its body takes the key out of the carry and carries a new one)",
            line=33, caller="train", kept="self.key")),
    ]


def test_function_returning_the_new_key_is_silent(tmp_path, monkeypatch):
    got = lint_files(tmp_path, monkeypatch, {"agent/td3.py": TD3_OK, "agent/explorer.py": EXPLORER_OK},
                     select="JAX301")
    assert got == []


# https://github.com/araffin/sbx/commit/596968ba16271931012b9f406efd6e9ee4945b84 (before): every
# CEM iteration of the fori_loop samples with the enclosing function's key (found before this
# branch too; kept as a regression test of the gathered instance)
CEM = """\
from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.jit, static_argnames=["n_sampled_actions", "action_dim"])
def find_best_actions_cem(qf_params, observations, key, n_sampled_actions: int, action_dim: int,
                          n_iterations: int = 3):
    carry = {"best_actions": jnp.zeros((observations.shape[0], action_dim))}

    def one_update(i, carry):
        deltas = jax.random.normal(key, shape=(observations.shape[0], n_sampled_actions, action_dim))
        return {"best_actions": carry["best_actions"] + deltas.mean(axis=1)}

    return jax.lax.fori_loop(0, n_iterations, one_update, carry)["best_actions"]
"""

CEM_OK = """\
from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.jit, static_argnames=["n_sampled_actions", "action_dim"])
def find_best_actions_cem(qf_params, observations, key, n_sampled_actions: int, action_dim: int,
                          n_iterations: int = 3):
    carry = {"best_actions": jnp.zeros((observations.shape[0], action_dim)), "key": key}

    def one_update(i, carry):
        key, new_key = jax.random.split(carry["key"], 2)
        deltas = jax.random.normal(key, shape=(observations.shape[0], n_sampled_actions, action_dim))
        return {"best_actions": carry["best_actions"] + deltas.mean(axis=1), "key": new_key}

    return jax.lax.fori_loop(0, n_iterations, one_update, carry)["best_actions"]
"""


def test_cem_loop_body_draws_with_the_enclosing_key(tmp_path, monkeypatch):
    got = lint_files(tmp_path, monkeypatch, {"policies.py": CEM}, select="JAX301")
    assert [g[:4] for g in got] == [("JAX301", "policies.py", 13, 18)]
    assert lint_files(tmp_path, monkeypatch, {"policies.py": CEM_OK}, select="JAX301") == []


# https://github.com/instadeepai/Mava/commit/0e559d99e7deb4c3e1b56745f3cabc447516d103 (before): the
# minibatch step hands back as its carry the entropy key its loss drew from (`entropy(seed=key)` of
# a transformed distribution estimates the entropy by sampling); the next minibatch splits it again
IPPO = """\
import jax
import jax.numpy as jnp


def get_learner_step_fn(actor_apply_fn):
    def _update_epoch(update_state, _):
        def _update_minibatch(train_state, batch_info):
            params, key = train_state
            obs = batch_info

            def _actor_loss_fn(actor_params, obs, key):
                actor_policy = actor_apply_fn(actor_params, obs)
                entropy = actor_policy.entropy(seed=key).mean()
                return -entropy, entropy

            key, entropy_key = jax.random.split(key)
            actor_grad_fn = jax.value_and_grad(_actor_loss_fn, has_aux=True)
            (loss, entropy), grads = actor_grad_fn(params, obs, entropy_key)
            params = params - 0.01 * grads
            return (params, entropy_key), entropy

        params, minibatches, key = update_state
        key, shuffle_key, entropy_key = jax.random.split(key, 3)
        (params, _), entropies = jax.lax.scan(_update_minibatch, (params, entropy_key), minibatches)
        return (params, minibatches, key), entropies

    return jax.jit(lambda state: jax.lax.scan(_update_epoch, state, None, length=2))
"""

IPPO_OK = IPPO.replace("return (params, entropy_key), entropy", "return (params, key), entropy")


def test_minibatch_step_returns_the_key_its_loss_drew_from(tmp_path, monkeypatch):
    got = lint_files(tmp_path, monkeypatch, {"ippo.py": IPPO}, select="JAX301")
    assert got == [
        ("JAX301", "ippo.py", 18, 38,
         "`entropy_key` is consumed by `actor_grad_fn()` here and returned as the lax.scan carry: the next "
         "step is handed this consumed key, and `random.split` on line 16 consumes it again, so both get "
         "the same random bits. Give this call a subkey (`entropy_key, sub = "
         "jax.random.split(entropy_key)` and pass `sub`)"),
    ]
    assert lint_files(tmp_path, monkeypatch, {"ippo.py": IPPO_OK}, select="JAX301") == []
