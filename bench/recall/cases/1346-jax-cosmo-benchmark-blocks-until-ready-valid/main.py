from scripts.benchmark_performance import AngularClBenchmark

if __name__ == "__main__":
    bench = AngularClBenchmark()
    for name in ("benchmark_lensing_cl_small", "benchmark_lensing_cl_large"):
        perf = getattr(bench, name)()
        print(f"{name}: {perf['time_seconds'] * 1e3:.2f} ms")
