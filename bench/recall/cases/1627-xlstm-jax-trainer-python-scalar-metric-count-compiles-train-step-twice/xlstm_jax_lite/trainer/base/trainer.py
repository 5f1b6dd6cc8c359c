import logging
from typing import Any

import jax
import jax.numpy as jnp
from flax.core import FrozenDict

from xlstm_jax_lite.trainer.metrics import ImmutableMetrics, update_metrics

LOGGER = logging.getLogger(__name__)

Batch = Any


class TrainerModule:
    """Trainer module (model, optimizer and sharding set-up removed: a linear model and SGD)."""

    def __init__(self, exmp_batch: Batch, default_train_log_modes=("mean", "max")):
        self.exmp_batch = exmp_batch
        self.default_train_log_modes = default_train_log_modes
        self.state = {"w": jnp.zeros(exmp_batch["x"].shape[-1])}
        self.train_step = jax.jit(self.create_training_step_function(), donate_argnames=["metrics"])

    def init_train_metrics(self, batch: Batch | None = None) -> FrozenDict:
        """
        Initialize the training metrics with zeros.

        We infer the training metric shape from the train_step function. This is done to prevent a double-compilation of
        the train_step function, where the first step has to be done with metrics None, and the next one with the
        metrics shape.
        """
        if not hasattr(self, "train_metric_shapes"):
            self.train_metric_shapes = None
        if self.train_metric_shapes is None:
            if batch is None:
                batch = self.exmp_batch
            _, self.train_metric_shapes = jax.eval_shape(self.train_step, self.state, batch, None)
            LOGGER.info(f"Initialized train metrics with keys {self.train_metric_shapes.keys()}.")
        return jax.tree.map(lambda x: jnp.zeros_like(x), self.train_metric_shapes)

    def create_training_step_function(self):
        def train_step(state, batch: Batch, metrics: ImmutableMetrics | None):
            def loss_fn(params):
                pred = batch["x"] @ params["w"]
                return jnp.mean((pred - batch["y"]) ** 2)

            loss, grads = jax.value_and_grad(loss_fn)(state)
            new_state = jax.tree.map(lambda p, g: p - 0.1 * g, state, grads)
            step_metrics = {"loss": {"value": loss, "count": 1}}

            # Update global training metrics.
            metrics = update_metrics(metrics, step_metrics, default_log_modes=self.default_train_log_modes)
            return new_state, metrics

        return train_step

    def train_model(self, batches):
        train_metrics = self.init_train_metrics()
        for batch in batches:
            self.state, train_metrics = self.train_step(self.state, batch, train_metrics)
        return train_metrics
