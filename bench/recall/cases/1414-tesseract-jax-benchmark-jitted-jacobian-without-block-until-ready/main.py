from benchmarks._benchmark import benchmark
from benchmarks.test_benchmarks import MAX_JAC_ARRAY_SIZE, TestVectoraddApi
from tesseract_jax_lite import VectoraddTesseract

if __name__ == "__main__":
    suite = TestVectoraddApi()
    suite.setup_inputs(VectoraddTesseract(), MAX_JAC_ARRAY_SIZE)
    fwd = suite.test_vectoradd_api_jacfwd(benchmark, MAX_JAC_ARRAY_SIZE)
    rev = suite.test_vectoradd_api_jacrev(benchmark, MAX_JAC_ARRAY_SIZE)
    print(f"jacfwd: {fwd * 1e3:.3f} ms, jacrev: {rev * 1e3:.3f} ms")
