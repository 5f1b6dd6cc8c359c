"""Checks that exercise the form the static rule flagged (issue 23 item 1), with real JAX
on CPU: a stale value read from a live object, a project module, a closure cell or a
mutated global list (JAX405); key reuse that JAX's checker does not see (JAX301); a loop
whose size is a closure cell (JAX503); an item assignment after an earlier error
(JAX101); findings outside any function (JAX121, JAX505).  Each was "not-reproduced",
"not-exercised", skipped or an internal error before.  The programs are in
tests/fixtures/runtime/forms; the test works on a copy.
"""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest

pytest.importorskip("jax")

from click.testing import CliRunner  # noqa: E402

from jaxlint.cli import cli  # noqa: E402

FIXTURE = Path(__file__).parent / "fixtures" / "runtime" / "forms"
RUNS = ("python stale.py", "python writes.py", "python draws.py", "python loops.py",
        "python toplevel.py")
IMMUTABLE = ("JAX arrays are immutable and do not support in-place item assignment. Instead "
             "of x[idx] = y, use x = x.at[idx].set(y) or another .at[] method: "
             "https://docs.jax.dev/en/latest/_autosummary/jax.numpy.ndarray.at.html")
STATEMENT = ("the statement at line {0} run as a function under checkify(index_checks), with "
             "the module's globals as the import left them")


@pytest.fixture(scope="module")
def verdicts(tmp_path_factory):
    root = tmp_path_factory.mktemp("forms") / "project"
    shutil.copytree(FIXTURE, root)
    args = ["confirm", "--output-format", "json", "--no-cache", "-j", "1", "--select",
            "JAX101,JAX121,JAX301,JAX405,JAX503,JAX505", "."]
    for run in RUNS:
        args += ["--run", run]
    with pytest.MonkeyPatch.context() as mp:
        mp.chdir(root)
        result = CliRunner().invoke(cli, args, catch_exceptions=False)
    assert result.exit_code == 1, result.output
    found = json.loads(result.stdout)
    return {(f["filename"], f["location"]["row"], f["code"], f["function"]): f["runtime"]
            for f in found}


def test_every_finding_has_its_verdict(verdicts):
    assert {k: v["verdict"] for k, v in verdicts.items()} == {
        ("draws.py", 10, "JAX301", "make_dropout.apply"): "confirmed",
        ("draws.py", 33, "JAX301", "train"): "confirmed",
        ("loops.py", 9, "JAX503", "make_cell.cell"): "confirmed",
        ("stale.py", 15, "JAX405", "Meter.read"): "confirmed",
        ("stale.py", 24, "JAX405", "Biased.apply"): "confirmed",
        ("stale.py", 29, "JAX405", "amplify"): "confirmed",
        ("stale.py", 36, "JAX405", "bump"): "confirmed",
        ("stale.py", 44, "JAX405", "outer.weighted"): "confirmed",
        ("toplevel.py", 7, "JAX121", None): "confirmed",
        ("toplevel.py", 12, "JAX505", None): "skipped",
        ("toplevel.py", 13, "JAX121", None): "confirmed",
        ("writes.py", 9, "JAX101", "corners"): "confirmed",
        ("writes.py", 11, "JAX101", "corners"): "confirmed",
        ("writes.py", 19, "JAX101", "ramp"): "confirmed",
    }


STALE = ("after changing {0}, the compiled function returns its old result while the eager "
         "call (jax.disable_jit) follows the new value: it was read once, at trace time")


@pytest.mark.parametrize("key, changed, note", [
    # a method jitted as `jax.jit(obj.method)`; its line also reads `jnp` (a module with
    # `shape` and `dtype` attributes: it was taken for an array, an internal error)
    (("stale.py", 15, "JAX405", "Meter.read"), "self.scale",
     " (a method, called on the live `Meter` object)"),
    # a method jitted with a static `self`
    (("stale.py", 24, "JAX405", "Biased.apply"), "self.bias",
     " (a method, called on the live `Biased` object)"),
    # an attribute of a project module (`settings.GAIN`)
    (("stale.py", 29, "JAX405", "amplify"), "settings.GAIN", ""),
    # a closure cell of the enclosing function, reassigned after the jitted call
    (("stale.py", 44, "JAX405", "outer.weighted"), "rate",
     " (a closure, called with the cells it had at its first call)"),
])
def test_a_stale_value_is_changed_as_the_program_changes_it(verdicts, key, changed, note):
    rt = verdicts[key]
    assert rt["evidence"] == STALE.format(changed) + note
    assert rt["details"]["oracle"] == "differential"
    assert rt["details"]["globals"] == [changed]


def test_a_global_list_changed_at_trace_time_only(verdicts):
    rt = verdicts[("stale.py", 36, "JAX405", "bump")]
    assert re.fullmatch(
        r"`calls` \(list\) changed on the first compiled call only \(while JAX traced it: "
        r"\[(\d+)\] -> \[(\d+)\] -> \[\2\]\), and on every eager call \(jax\.disable_jit: "
        r"\[\1\] -> \[\2\] -> \[\d+\]\): the compiled function does not change it again"
        r" \(observed call \d of 2 replayed\)", rt["evidence"]), rt["evidence"]
    assert rt["details"]["mutated"] == "calls"


def test_a_fixed_key_inside_a_closure_is_the_same_whatever_key_is_passed(verdicts):
    rt = verdicts[("draws.py", 10, "JAX301", "make_dropout.apply")]
    assert rt["evidence"] == (
        "`bernoulli` at line 10 drew from the same key bits when the call was given other "
        "keys: its key does not come from the inputs, so every call draws the same numbers "
        "(a closure, called with the cells it had at its first call)")
    assert rt["details"]["oracle"] == "draws watched, keys changed"


def test_a_key_folded_in_the_same_way_twice_is_reuse(verdicts):
    # `fold_in` is no use for JAX's checker: the same subkey in each iteration is
    rt = verdicts[("draws.py", 33, "JAX301", "train")]
    assert rt["evidence"] == (
        "`normal` (from line 19) drew twice from the same key bits while line 33 ran: the "
        "same random numbers twice (jax.random watched in an eager run; the key was not "
        "split between the uses)")
    assert rt["details"]["use_sites"] == [19, 19]


def test_a_loop_sized_by_a_closure_cell_is_halved(verdicts):
    rt = verdicts[("loops.py", 9, "JAX503", "make_cell.cell")]
    assert rt["evidence"] == (
        "13 jaxpr equations (7 with n = 3 instead of 6): the Python loop is unrolled into "
        "the program (a closure, called with the cells it had at its first call)")
    assert rt["details"]["eqns_at_half"] == {"n": 3, "eqns": 7, "of": "n"}


def test_an_item_assignment_after_an_earlier_one_is_reached(verdicts):
    rt = verdicts[("writes.py", 11, "JAX101", "corners")]
    assert rt["evidence"] == (f"TypeError at line 11: {IMMUTABLE} (traced again, with the item "
                              "assignment(s) at line(s) 9 let through (each raises the same "
                              "TypeError))")
    assert rt["details"]["earlier"].startswith("tracing stopped earlier, at line 9, before "
                                               "reaching line 11: TypeError at line 9: ")


def test_an_item_assignment_after_a_trace_error_is_called_eagerly(verdicts):
    rt = verdicts[("writes.py", 19, "JAX101", "ramp")]
    assert rt["evidence"] == f"TypeError at line 19: {IMMUTABLE} (called without jit (jax.disable_jit))"
    assert rt["details"]["how"] == "called with concrete inputs under jax.disable_jit()"
    assert rt["details"]["earlier"].startswith(
        "tracing stopped earlier, at line 16, before reaching line 19: "
        "jax.errors.ConcretizationTypeError at line 16: ")


@pytest.mark.parametrize("line, message", [
    (7, "index 8 is out of bounds for axis 0 with size 6."),  # runs at import
    (13, "index 7 is out of bounds for axis 0 with size 6."),  # in the __main__ block
])
def test_an_out_of_bounds_index_outside_a_function_runs_its_statement(verdicts, line, message):
    rt = verdicts[("toplevel.py", line, "JAX121", None)]
    assert rt["evidence"] == (f"checkify(index_checks): out-of-bounds indexing for array of "
                              f"shape (6,): {message} ({STATEMENT.format(line)})")
    assert rt["details"]["oracle"] == "checkify(index_checks)"


def test_a_rule_without_a_check_outside_a_function_says_so(verdicts):
    rt = verdicts[("toplevel.py", 12, "JAX505", None)]
    assert rt["reason"] == ("no runtime check for JAX505: a timing mistake in the caller; "
                            "results are right, only the measured time is wrong")


REBINDS = '''\
import jax.numpy as jnp

buf = jnp.arange(6)
buf = buf.at[0].set(buf[9])
x = jnp.arange(3)
x = x[5] + 1
'''


def test_a_statement_that_rebinds_a_name_it_reads(tmp_path, monkeypatch):
    """`x = x[5] + 1` at module level: the statement reads the module's `x` (run as a
    function body it was an UnboundLocalError, shown as "nothing to call").  `buf` still
    has 6 items once imported: confirmed; `x` is a scalar by then: skipped, saying why."""
    (tmp_path / "rebinds.py").write_text(REBINDS)
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(cli, ["confirm", "--output-format", "json", "--no-cache", "-j", "1",
                                      "--select", "JAX121", "rebinds.py"], catch_exceptions=False)
    got = {f["location"]["row"]: f["runtime"] for f in json.loads(result.stdout)}
    assert sorted(got) == [4, 6], result.output
    assert (got[4]["verdict"], got[4]["evidence"]) == ("confirmed", (
        "checkify(index_checks): out-of-bounds indexing for array of shape (6,): index 9 is out "
        f"of bounds for axis 0 with size 6. ({STATEMENT.format(4)})"))
    assert (got[6]["verdict"], got[6]["reason"]) == ("skipped", (
        f"not inside a function: {STATEMENT.format(6)}, which raised IndexError at line 6: "
        "Too many indices: array is 0-dimensional, but 1 were indexed"))
