import functools
from typing import Optional, Union

import flax.linen as nn
import jax
from jax import Array
import jax.numpy as jnp

ACT2FN = {"silu": nn.silu}


class MixtralConfig:
    """Stand-in for EasyDeL's MixtralConfig: the fields the experts read."""

    def __init__(self, hidden_size=8, intermediate_size=16, num_local_experts=4,
                 num_experts_per_tok=2, hidden_act="silu"):
        self.hidden_size = hidden_size
        self.intermediate_size = intermediate_size
        self.num_local_experts = num_local_experts
        self.num_experts_per_tok = num_experts_per_tok
        self.hidden_act = hidden_act


class FlaxMixtralBLockSparseTop2MLP(nn.Module):
    config: MixtralConfig
    dtype: jnp.dtype = jnp.bfloat16
    param_dtype: jnp.dtype = jnp.bfloat16
    precision: Optional[Union[None, jax.lax.Precision]
    ] = jax.lax.Precision("fastest")

    def setup(self) -> None:
        dense = functools.partial(
            nn.Dense,
            use_bias=False,
            dtype=self.dtype,
            param_dtype=self.param_dtype,
            precision=self.precision,
            kernel_init=nn.initializers.normal(),
        )
        self.w1 = dense(self.config.intermediate_size)
        self.w3 = dense(self.config.intermediate_size)
        self.w2 = dense(self.config.hidden_size)
        self.act_fn = ACT2FN[self.config.hidden_act]

    def __call__(self, x: Array):
        return self.w2(self.act_fn(self.w1(x)) * self.w3(x))


class FlaxMixtralBlocKSparesTop2MLPCollection(nn.Module):
    config: MixtralConfig
    dtype: jnp.dtype = jnp.bfloat16
    param_dtype: jnp.dtype = jnp.bfloat16
    precision: Optional[jax.lax.Precision] = jax.lax.Precision("fastest")

    def setup(self) -> None:
        self.layers = [
            FlaxMixtralBLockSparseTop2MLP(
                config=self.config,
                dtype=self.dtype,
                param_dtype=self.param_dtype,
                precision=self.precision,
                name=str(i)
            )
            for i in range(self.config.num_local_experts)
        ]

    def __call__(
            self,
            expert_mask: Array,
            hidden_states: Array,
            routing_weights: Array,
            batch_size: int,
            sequence_length: int,
            hidden_dim: int
    ) -> Array:
        assert hidden_states.ndim == 2
        final_hidden_states = jnp.zeros(
            (batch_size * sequence_length, hidden_dim), dtype=hidden_states.dtype
        )

        for expert_idx, expert_layer in enumerate(self.layers):
            selected_mask = expert_mask[expert_idx]
            idx, top_x = jnp.nonzero(selected_mask)
            if top_x.shape[0] == 0:
                continue

            current_state = hidden_states[None, top_x].reshape(-1, hidden_dim)

            current_hidden_states = expert_layer(
                current_state
            ) * routing_weights[top_x, idx, None]
            final_hidden_states.at[top_x].set(
                current_hidden_states + final_hidden_states[top_x]
            )

        return final_hidden_states.reshape(batch_size, sequence_length, hidden_dim)
