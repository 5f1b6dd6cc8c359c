# jax2onnx/plugins/jax/lax/scatter_mul.py
import jax.numpy as jnp
from jax import lax

from jax2onnx_lite.plugins.plugin_system import PrimitiveLeafPlugin, register_primitive


@register_primitive(
    jaxpr_primitive=lax.scatter_mul_p.name,
    component="scatter_mul",
    testcases=[
        {
            "testcase": "scatter_mul_fluids_pattern_updates_5_4_1_1",
            "callable": lambda operand, indices, updates: lax.scatter_mul(
                operand,
                indices,
                updates,
                dimension_numbers=lax.ScatterDimensionNumbers(
                    update_window_dims=(0, 1, 2, 3),
                    inserted_window_dims=(),
                    scatter_dims_to_operand_dims=(1,),
                ),
            ),
            "input_values": [
                jnp.ones((5, 208, 1, 1), dtype=jnp.float64),
                jnp.array([0], dtype=jnp.int32),
                jnp.full((5, 4, 1, 1), 2.0, dtype=jnp.float64),
            ],
            "run_only_f64_variant": True,
            "expected_output_shapes": [(5, 208, 1, 1)],
        },
    ],
)
class ScatterMulPlugin(PrimitiveLeafPlugin):
    pass
