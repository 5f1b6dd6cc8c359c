"""Test targets of a Bazel ``BUILD`` file that run with x64 on.

A project that runs its tests with Bazel says how each test runs in the ``BUILD`` (or
``BUILD.bazel``) file of the test's folder: a target (``py_test``, or a macro around
it) whose ``srcs`` list the test file and whose ``env`` sets ``JAX_ENABLE_X64`` to
``"1"``/``"true"`` runs that file with x64 on (JAX reads the variable when it is
imported)::

    py_test(
        name = "frontend_utils_test",
        srcs = ["frontend_utils_test.py"],
        env = {"JAX_ENABLE_X64": "1"},
    )

The file is Starlark, read with Python's own parser (its syntax is a subset); a file
that does not parse, a ``srcs`` or ``env`` that is not written out (``glob(...)``, a
name) says nothing: such a test keeps the default, x64 off.
"""

from __future__ import annotations

import ast
import os
from typing import Optional

BUILD_FILES = ("BUILD.bazel", "BUILD")
# the values JAX reads as true, in any case (jax/_src/config.py `bool_env`)
_ON = frozenset({"y", "yes", "t", "true", "on", "1"})
_MEMO: dict[str, tuple[Optional[tuple[int, int]], frozenset[str]]] = {}


def runs_with_x64(path: str) -> bool:
    """Does a Bazel target of the ``BUILD`` file beside ``path`` run it with
    ``JAX_ENABLE_X64`` set on?"""
    folder, name = os.path.split(os.path.abspath(path))
    return name in _x64_sources(folder)


def _x64_sources(folder: str) -> frozenset[str]:
    for build in BUILD_FILES:
        p = os.path.join(folder, build)
        try:
            st = os.stat(p)
        except OSError:
            continue
        stamp = (st.st_mtime_ns, st.st_size)
        hit = _MEMO.get(p)
        if hit is not None and hit[0] == stamp:
            return hit[1]
        try:
            with open(p, "rb") as f:
                text = f.read()
            tree = ast.parse(text)
        except (OSError, SyntaxError, ValueError):
            found: frozenset[str] = frozenset()
        else:
            found = frozenset(_targets_with_x64(tree))
        _MEMO[p] = (stamp, found)
        return found
    return frozenset()


def _targets_with_x64(tree: ast.AST) -> set[str]:
    """The sources every test or binary target that lists them runs with x64 on (a
    second target running the same file without it runs it 32-bit: not x64)."""
    on: set[str] = set()
    off: set[str] = set()
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        rule = node.func.id if isinstance(node.func, ast.Name) else \
            node.func.attr if isinstance(node.func, ast.Attribute) else ""
        if not rule.endswith(("test", "binary")):
            continue  # a library (`py_library`) lists a file but runs nothing: only a test or binary does
        kw = {k.arg: k.value for k in node.keywords if k.arg is not None}
        env, srcs = kw.get("env"), kw.get("srcs")
        if not isinstance(srcs, (ast.List, ast.Tuple)):
            continue
        names = {e.value for e in srcs.elts if isinstance(e, ast.Constant) and isinstance(e.value, str)
                 and "/" not in e.value}
        x64 = isinstance(env, ast.Dict) and any(
            isinstance(k, ast.Constant) and k.value == "JAX_ENABLE_X64" and isinstance(v, ast.Constant)
            and isinstance(v.value, str) and v.value.lower() in _ON for k, v in zip(env.keys, env.values))
        (on if x64 else off).update(names)
    return on - off
