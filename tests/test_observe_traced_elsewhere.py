"""observe: an error raised inside a function traced through code that is not the user's.

`jax.jit(model.apply)` traces flax's `apply`, whose frames are never among the user's; the
user's `np.asarray(x)` raising TracerArrayConversionError inside it is numpy-on-tracer
(JAX204) at that line, not a tracer "used after its trace ended" (JAX211), which is what
observe said when it looked for the traced function's body among the user's frames.
"""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("jax")

WRAP = '''\
def apply(fn, x):
    return fn(x)
'''

MAIN = '''\
import sys
from functools import partial

import jax
import numpy as np

sys.path.insert(0, "vendor")
import wrap  # noqa: E402


def layer(x):
    return np.asarray(x) * 2.0


if __name__ == "__main__":
    print(jax.jit(partial(wrap.apply, layer))(np.ones(3)))
'''


def test_numpy_on_a_tracer_of_a_function_traced_outside_paths(tmp_path: Path) -> None:
    (tmp_path / "app").mkdir()
    (tmp_path / "vendor").mkdir()
    (tmp_path / "vendor" / "wrap.py").write_text(WRAP)
    (tmp_path / "app" / "main.py").write_text(MAIN)
    done = subprocess.run(
        [sys.executable, "-m", "jaxlint", "observe", "--no-cache", "--run", "python app/main.py",
         "--output-format", "json", "app"],
        cwd=tmp_path, capture_output=True, text=True, timeout=180)
    found = [(f["code"], f["filename"], f["location"]["row"], f["location"]["column"],
              f["message"].split(" was called")[0]) for f in json.loads(done.stdout)]
    assert found == [("JAX204", "app/main.py", 12, 12,
                      "The run raised jax.errors.TracerArrayConversionError: The numpy.ndarray "
                      "conversion method __array__()")], done.stderr


STORE = '''\
import jax
import numpy as np


class Box:
    cache = None


box = Box()


@jax.jit
def f(x):
    box.cache = x * 2.0
    return x


if __name__ == "__main__":
    f(np.ones(3))
    print(np.array(box.cache))
'''


def test_a_tracer_of_the_users_function_used_after_its_trace_is_still_a_leak(tmp_path: Path) -> None:
    """The twin: the traced function is the user's and none of its lines is running when
    `np.array` meets its tracer, so that tracer outlived its trace (JAX211)."""
    (tmp_path / "app").mkdir()
    (tmp_path / "app" / "main.py").write_text(STORE)
    done = subprocess.run(
        [sys.executable, "-m", "jaxlint", "observe", "--no-cache", "--run", "python app/main.py",
         "--output-format", "json", "--select", "JAX211", "app"],
        cwd=tmp_path, capture_output=True, text=True, timeout=180)
    found = [(f["code"], f["filename"], f["location"]["row"], f["message"].split(": jax.errors")[0])
             for f in json.loads(done.stdout)]
    assert found == [("JAX211", "app/main.py", 20,
                      "The run used a tracer of `f` (traced at line 12) after its trace ended")], done.stderr
