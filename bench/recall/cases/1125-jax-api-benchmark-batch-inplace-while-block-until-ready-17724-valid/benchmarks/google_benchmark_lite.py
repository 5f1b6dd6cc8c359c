"""A stand-in for google_benchmark: register a function, time its `while state:` loop."""
import time

_REGISTERED = []


def register(fn=None, *, name=None):
  if fn is None:
    return lambda f: register(f, name=name)
  _REGISTERED.append((name or fn.__name__, fn))
  return fn


class State:
  def __init__(self, iterations):
    self._left = iterations
    self.start = None

  def __bool__(self):
    if self.start is None:
      self.start = time.perf_counter()
    self._left -= 1
    return self._left >= 0


def main(iterations=5):
  for name, fn in _REGISTERED:
    state = State(iterations)
    fn(state)
    print(f"{name}: {(time.perf_counter() - state.start) / iterations * 1e3:.3f} ms")
