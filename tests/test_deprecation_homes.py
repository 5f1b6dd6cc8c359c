"""Names JAX removed from `jax.core` whose object lives on, public, in `jax.extend`: the
message names that home and the fix renames the import (the CHANGELOG said "nothing
public"; `jax.extend.core.JaxprEqn is jax._src.core.JaxprEqn` on JAX 0.10.2).  And the
`jax.interpreters.pxla` sharding internals: the message reads as one sentence."""

from __future__ import annotations

import libcst as cst

from jaxlint.settings import LintSettings
from jaxlint.fix.fixer import fix_text
from rule_examples import lint

SRC = """\
from jax.core import JaxprEqn
from jax.interpreters.pxla import ShardingSpec
import jax.core as jc


def f(e: JaxprEqn, s: ShardingSpec):
    return jc.closed_call_p, jc.Token
"""


def test_removed_core_names_point_at_their_public_home_in_jax_extend() -> None:
    got = [(f.code, f.line, f.col, f.message) for f in lint(SRC, select=["JAX901"])]
    assert got == [
        ("JAX901", 1, 22, "`from jax.core import JaxprEqn` was removed in JAX 0.6.0: use `jax.extend.core.JaxprEqn` instead"),
        ("JAX901", 2, 35, "`from jax.interpreters.pxla import ShardingSpec` was removed in JAX 0.10.0 (deprecated in 0.8.2): "
                          "use `jax.shard_map` instead (it was part of `jax.pmap`'s sharding internals)"),
        ("JAX901", 7, 12, "`jc.closed_call_p` was removed in JAX 0.7.0: use `jax.extend.core.primitives.closed_call_p` instead"),
        ("JAX901", 7, 30, "`jc.Token` was removed in JAX 0.6.0: use `jax.extend.core.Token` instead"),
    ]


def test_the_import_of_a_moved_core_name_is_renamed_and_the_rest_kept() -> None:
    settings = LintSettings(select=frozenset({"JAX901"}))
    out = fix_text(SRC, "example.py", settings).text
    assert out == SRC.replace("from jax.core import JaxprEqn", "from jax.extend.core import JaxprEqn")
    cst.parse_module(out)
    assert fix_text(out, "example.py", settings).text == out
