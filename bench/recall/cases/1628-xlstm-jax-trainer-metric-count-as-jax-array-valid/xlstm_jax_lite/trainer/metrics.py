import logging
from collections.abc import Sequence
from typing import Any, Literal

import jax
import jax.numpy as jnp
import numpy as np
from flax.core import FrozenDict, freeze, unfreeze

LogMode = Literal["mean", "mean_nopostfix", "single", "max", "std", "single_noreduce", "single_noreduce_wcount"]
"""Mode for logging. Describes how to aggregate metrics over steps.

- `mean`: Mean of the metric.
- `mean_nopostfix`: Mean of the metric without adding a mean postfix to the key.
- `single`: Single value of the metric, i.e. only tracks the last value.
- `max`: Maximum value of the metric.
- `std`: Standard deviation of the metric.
- `single_noreduce`: Concatenate the metrics of multiple values.
- `single_noreduce_wcount`: Concatenate the metrics and counts of multiple values.
"""
# Immutable metrics for compilation.
ImmutableMetricElement = FrozenDict[LogMode, FrozenDict[str, jax.Array | int | float]]
ImmutableMetrics = FrozenDict[str, ImmutableMetricElement]
# Mutable metrics for updating/editing.
MutableMetricElement = dict[LogMode, dict[str, jax.Array | int | float]]
MutableMetrics = dict[str, MutableMetricElement]
# Metrics forwarded per step.
StepMetricsElement = (
    jax.Array | int | float | dict[Literal["value", "count", "log_modes"], jax.Array | int | float | Sequence[LogMode]]
)
StepMetrics = dict[str, StepMetricsElement]
# Combined types.
MetricElement = ImmutableMetricElement | MutableMetricElement
Metrics = ImmutableMetrics | MutableMetrics
# Metrics on host (for logging).
HostMetricElement = float | int | np.ndarray
HostMetrics = dict[str, HostMetricElement]

LOGGER = logging.getLogger(__name__)




def update_metrics(
    global_metrics: Metrics | None,
    step_metrics: StepMetrics,
    default_log_modes: Sequence[LogMode] | None = None,
) -> ImmutableMetrics:
    """
    Update metrics with new values.

    Args:
        global_metrics: Global metrics to update. If `None`, a new dictionary is created.
        step_metrics: Metrics to update with.
        default_log_modes: The default log mode for the metrics. If `None`, only the mean will be logged. Otherwise, we
            log each of the modes specified. The metric key will be appended with the log mode.

    Returns:
        Updated global metrics.
    """
    if global_metrics is None:
        global_metrics = {}
    if isinstance(global_metrics, FrozenDict):
        global_metrics = unfreeze(global_metrics)
    for key in step_metrics:
        # Prepare input metric
        metric_in = step_metrics[key]
        if not isinstance(metric_in, dict):
            metric_in = {"value": metric_in}
        val = metric_in["value"]
        if isinstance(val, jnp.ndarray) and jnp.issubdtype(val.dtype, jnp.floating):
            val = val.astype(jnp.float32)
        count = metric_in.get("count", 1)
        log_modes = metric_in.get("log_modes", default_log_modes)
        _update_single_metric(
            global_metrics,
            key,
            val,
            count,
            log_modes,
        )
    global_metrics = freeze(global_metrics)
    return global_metrics



def _empty_val(value: Any) -> Any:
    if isinstance(value, int):
        return 0
    elif isinstance(value, str):
        return ""
    elif isinstance(value, float):
        return 0.0
    elif isinstance(value, np.ndarray):
        return np.zeros_like(value)
    elif isinstance(value, jax.Array):
        return jnp.zeros_like(value)
    else:
        return value


def _update_single_metric(
    global_metrics: MutableMetrics,
    key: str,
    value: Any,
    count: Any,
    log_modes: Sequence[LogMode] | None = None,
) -> MutableMetrics:
    """
    Update a single metric.

    Args:
        global_metrics: Global metrics to update.
        key: Key of the metric to update.
        value: Value of the metric to update.
        count: Count of the metric to update.
        log_modes: The log modes for the metric.
    """
    if log_modes is None:
        log_modes = ["mean_nopostfix"]

    # Get previous metrics from global dict.
    if key not in global_metrics:
        global_metrics[key] = {mode: {"value": _empty_val(value), "count": 0} for mode in log_modes}
    metrics_dict = global_metrics[key]

    # Update each log mode.
    for log_mode in log_modes:
        mode_dict = metrics_dict[log_mode]
        if log_mode == "mean" or log_mode == "mean_nopostfix":
            # For mean, we store the sum of the values and the count.
            mode_dict["count"] += count
            mode_dict["value"] += value
        elif log_mode == "single":
            # For single, we store the last value.
            mode_dict["count"] = count
            mode_dict["value"] = value
        elif log_mode == "max":
            # For max, we store the maximum average value over all steps.
            mode_dict["count"] = 1
            mode_dict["value"] = jnp.maximum(mode_dict["value"], value / count)
        elif log_mode == "std":
            # For std, we store the sum of the values and the sum of the squared values.
            mode_dict["count"] += 1
            mode_dict["value"] += value / count
            mode_dict["value2"] = mode_dict.get("value2", 0.0) + (value / count) ** 2
        elif log_mode == "single_noreduce":
            mode_dict["value"] = value
            mode_dict["count"] = count
        elif log_mode == "single_noreduce_wcount":
            mode_dict["value"] = value
            mode_dict["count"] = count
        else:
            raise ValueError(f"Invalid log mode {log_mode}.")

        if not isinstance(mode_dict["count"], jnp.ndarray):
            # For scalars, we want to convert them into a full JAX array to have consistent types.
            dtype = jnp.float32 if isinstance(mode_dict["count"], float) else jnp.int32
            mode_dict["count"] = jnp.asarray(mode_dict["count"], dtype=dtype)

