from benchmarks import api_benchmark  # noqa: F401  (registers the benchmarks)
from benchmarks import google_benchmark_lite

if __name__ == "__main__":
    google_benchmark_lite.main(iterations=3)
