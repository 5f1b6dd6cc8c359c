import os
import sys

sys.path.insert(0, os.path.dirname(__file__))


def time_limit_for(code: str, cwd=None, factor: float = 3.0, least: float = 5.0) -> float:
    """A time limit for a command under test that holds on a loaded machine: ``factor``
    times what ``python -c CODE`` takes here now (its imports: JAX's takes 1 s idle and
    8 s at a load average of 10), and at least ``least`` seconds.  A test of a time-out
    sets the command's limit so, instead of a fixed number that a busy machine overruns
    before the command has done what the test looks for."""
    import subprocess
    import time

    start = time.monotonic()
    subprocess.run([sys.executable, "-c", code], cwd=cwd, capture_output=True, timeout=300)
    return round(max(least, factor * (time.monotonic() - start) + 2.0))
