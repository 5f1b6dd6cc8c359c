"""Stand-in for pytest-benchmark's `benchmark` fixture: calls fn a few rounds and
reports the mean wall time of a call."""
import time


def benchmark(fn, *args, rounds=20):
    times = []
    for _ in range(rounds):
        start = time.perf_counter()
        fn(*args)
        times.append(time.perf_counter() - start)
    return sum(times) / len(times)
