import jax2onnx_lite.plugins.jax.lax  # noqa: F401  (plugin discovery imports every plugin)
from jax2onnx_lite.plugins.plugin_system import PLUGIN_REGISTRY

if __name__ == "__main__":
    _, meta = PLUGIN_REGISTRY["scatter-mul"]
    for case in meta["testcases"]:
        print(case["testcase"], [str(v.dtype) for v in case["input_values"]])
