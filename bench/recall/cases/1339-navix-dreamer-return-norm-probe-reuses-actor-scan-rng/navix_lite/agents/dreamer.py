from typing import NamedTuple

import jax
import jax.numpy as jnp

from .world import imagine


class DreamerHParams(NamedTuple):
    recurrent_size: int = 4
    imag_horizon: int = 5
    discount: float = 0.99
    lam: float = 0.95
    num_actor_updates: int = 2
    actor_lr: float = 1e-2
    return_norm_rate: float = 0.01
    return_norm_limit: float = 1.0


class Dreamer:
    def __init__(self, hparams: DreamerHParams):
        self.hparams = hparams

    def actor_apply(self, actor_params, feat):
        return feat @ actor_params["w"]

    def _actor_critic_rollout(self, model_params, actor_params, start_feats, rng):
        """Shared imagination rollout for both the actor and critic losses."""
        hp = self.hparams
        h0, z0 = start_feats[:, : hp.recurrent_size], start_feats[:, hp.recurrent_size :]

        def actor_logits_fn(feat):
            return self.actor_apply(actor_params, feat)

        feats, rews, term_logits, actions, logps = imagine(
            model_params, h0, z0, actor_logits_fn, hp.imag_horizon, rng
        )
        continues = 1.0 - jax.nn.sigmoid(term_logits)
        feats_in = jnp.concatenate([start_feats[:, None, :], feats[:, :-1]], axis=1)
        weight = jnp.concatenate(
            [
                jnp.ones_like(continues[:, :1]),
                jnp.cumprod(hp.discount * continues, axis=1)[:, :-1],
            ],
            axis=1,
        )
        return feats_in, feats, rews, continues, actions, weight

    def _lambda_returns(self, rews, continues, discount, lam):
        def step(next_ret, x):
            r, c = x
            ret = r + discount * c * next_ret
            return ret, ret

        _, rets = jax.lax.scan(step, jnp.zeros(rews.shape[0]), (rews.T, continues.T), reverse=True)
        return rets.T

    def _actor_loss(self, actor_params, model_params, start_feats, return_norm_scale, rng):
        hp = self.hparams
        _, feats, rews, continues, actions, weight = self._actor_critic_rollout(
            model_params, actor_params, start_feats, rng
        )
        returns = self._lambda_returns(rews, continues, hp.discount, hp.lam)
        loss = -jnp.mean(weight * returns / return_norm_scale)
        return loss, {"actor/return": jnp.mean(returns)}

    def update_actor(self, model_params, actor_params, start_feats, return_norm_lo, return_norm_hi, rng):
        hp = self.hparams
        # Return-normalization scale: EMA-tracked 5th/95th percentile of
        # a quick lambda-return estimate under the current critic, so the
        # actor's advantage is on a comparable scale regardless of the
        # environment's raw reward magnitude.
        _, probe_feats, probe_rews, probe_continues, _, _ = self._actor_critic_rollout(
            model_params, actor_params, start_feats, rng
        )
        probe_returns = self._lambda_returns(probe_rews, probe_continues, hp.discount, hp.lam)
        lo = jnp.percentile(probe_returns, 5)
        hi = jnp.percentile(probe_returns, 95)
        rate = hp.return_norm_rate
        return_norm_lo = (1 - rate) * return_norm_lo + rate * lo
        return_norm_hi = (1 - rate) * return_norm_hi + rate * hi
        return_norm_scale = jnp.maximum(
            return_norm_hi - return_norm_lo, hp.return_norm_limit
        )

        def actor_step(carry, _):
            actor_params, rng = carry
            rng, key = jax.random.split(rng)

            def loss_fn(p):
                return self._actor_loss(p, model_params, start_feats, return_norm_scale, key)

            (loss, alogs), grads = jax.value_and_grad(loss_fn, has_aux=True)(actor_params)
            actor_params = jax.tree.map(lambda p, g: p - hp.actor_lr * g, actor_params, grads)
            return (actor_params, rng), {"loss/actor": loss, **alogs}

        (actor_params, rng), alogs = jax.lax.scan(
            actor_step, (actor_params, rng), None, length=hp.num_actor_updates
        )
        return actor_params, return_norm_lo, return_norm_hi, rng, alogs
