from typing import Any, Tuple

from jax.experimental.host_callback import id_tap
from jax.lax import scan


def tap_function(_: None, transforms) -> None:
    pass

def f(state: None, x: None) -> Tuple[None, Any]:
    trajectory = 1.0
    trajectory = id_tap(tap_function, None, result=trajectory)  # Passing in 0 instead of None stifles the error.
    return None, trajectory

if __name__ == "__main__":
    print(scan(f, None, None, 10))
