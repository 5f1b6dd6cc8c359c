from dataclasses import dataclass
from functools import cached_property

import equinox as eqx
import jax
import optax

from .grad_accum import accumulate_gradients_sharded
from .partitioning import named_jit
from .utils.tree_utils import inference_mode


@dataclass
class TrainerConfig:
    per_device_parallelism: int = -1


class Trainer:
    def __init__(self, config: TrainerConfig, optimizer: optax.GradientTransformation, loss_fn):
        self.config = config
        self.optimizer = optimizer
        self.loss_fn = loss_fn
        self.TrainBatch = None
        self.parameter_axis_mapping = None

    def partition_trainable_params(self, model):
        return eqx.partition(model, eqx.is_inexact_array)

    @cached_property
    def _train_step_fn(self):
        @named_jit(
            axis_resources=self.parameter_axis_mapping,
            out_axis_resources=self.parameter_axis_mapping,
            donate_args=(True, True),
        )
        def train_step(model, opt_state, *batch, **batch_kwargs):
            jax.debug.print("\n\nGetting model mode\n\n")
            model = inference_mode(model, False)

            # we do this so that we only take the gradients of the trainable parameters
            trainable_model, rest_model = self.partition_trainable_params(model)

            def split_loss_fn(trainable_model, *batch, **batch_kwargs):
                model = eqx.combine(trainable_model, rest_model)
                return self.loss_fn(model, *batch, **batch_kwargs)

            loss, grads = accumulate_gradients_sharded(
                split_loss_fn, self.TrainBatch, self.config.per_device_parallelism, self.parameter_axis_mapping
            )(trainable_model, *batch, **batch_kwargs)

            updates, opt_state = self.optimizer.update(grads, opt_state, params=trainable_model)

            model = eqx.apply_updates(model, updates)

            jax.debug.print("\n\nreturning from train step inside _train_step_fn\n\n")
            return loss, model, opt_state

        print("\n\nRETURNING the function train_step from _train_step_fn\n\n")
        return train_step

    def train_step(self, model, opt_state, *batch, **batch_kwargs):
        return self._train_step_fn(model, opt_state, *batch, **batch_kwargs)
