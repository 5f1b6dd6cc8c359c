"""Run the sharp example end to end: `python -m sharp` from examples/.

`jaxlint confirm examples/` runs this (examples/pyproject.toml: [tool.jaxlint.runtime]
run) to watch the flagged functions' real inputs. Several calls hit their bug and
raise; each is reported and the script goes on.
"""

import jax
import jax.numpy as jnp

from .experiment import augment, entropy, log_likelihood, run
from .model import add_noise, clipped_forward, init_mlp
from .train import early_stopping, ema, evaluate, pad_to, sgd_step


def attempt(name, fn, *args):
    try:
        out = fn(*args)
    except Exception as exc:  # noqa: BLE001 - the sharp bits raise; keep going
        print(f"{name}: {type(exc).__name__}")
        return None
    print(f"{name}: ok")
    return out


def main():
    key = jax.random.key(0)
    kx, ky = jax.random.split(key)
    x = jax.random.normal(kx, (128, 4))
    y = jax.random.normal(ky, (128, 1))
    params = init_mlp([4, 16, 1])
    for _ in range(2):
        params, loss = sgd_step(params, x, y, 0.1)
    attempt("clipped_forward", clipped_forward, params, x, 1.0)
    attempt("add_noise", add_noise, x[0], jax.random.PRNGKey(1), 0.1)
    attempt("ema", ema, jnp.ones(10), 0.9)
    attempt("pad_to", pad_to, jnp.ones(4), 8)
    attempt("early_stopping", early_stopping, jnp.linspace(1.0, 0.0, 10), 3)
    attempt("evaluate", evaluate, params, x, y)
    attempt("augment", augment, x[0])
    attempt("log_likelihood", log_likelihood, params, x, y)
    attempt("entropy", entropy, jax.nn.softmax(x[0]))
    attempt("run", run, x, y, 3)


if __name__ == "__main__":
    main()
