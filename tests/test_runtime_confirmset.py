"""Verdicts found wanting by bench/recall/confirm_score.py (issue 23), with real JAX on CPU.

* a removed-API finding is answered by the installed JAX (the import or the dotted name
  evaluated alone): confirmed at an import that stops the run before the watch list
  comes, inside a module that fails to import, and on a line the run never reached;
  a name that exists is not reproduced;
* JAX110 outside any function: the float64 truncation warning the run issued while the
  line (or the multi-line statement that holds it) ran;
* JAX203: an iterator that tracing finds spent (StopIteration at the flagged line) was
  read at trace time;
* a trace that stopped at an earlier line never ran the flagged one: not-exercised.

Each test works on a copy in a temporary directory.
"""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

import pytest

pytest.importorskip("jax")

pytestmark = pytest.mark.slow  # real JAX in subprocesses (`make test-fast` skips it)

from click.testing import CliRunner  # noqa: E402

from jaxlint.cli import cli  # noqa: E402
from jaxlint.runtime.apicheck import check_api, statement_for  # noqa: E402


def _project(tmp_path: Path, files: dict[str, str]) -> Path:
    root = tmp_path / "project"
    root.mkdir()
    (root / "pyproject.toml").write_text('[tool.jaxlint]\ncache-dir = "cache"\n')
    for name, text in files.items():
        (root / name).write_text(textwrap.dedent(text))
    return root


def _confirm(root: Path, *args: str, env: dict | None = None) -> dict:
    with pytest.MonkeyPatch.context() as mp:
        mp.chdir(root)
        for k, v in (env or {}).items():
            mp.setenv(k, v)
        result = CliRunner().invoke(cli, ["confirm", "--output-format", "json", "--no-cache",
                                          *args], catch_exceptions=False)
    assert result.exit_code in (0, 1), result.output
    return {(f["filename"], f["location"]["row"], f["code"]): f["runtime"]
            for f in json.loads(result.stdout)}


REMOVED_IMPORTS = """\
import jax
from jax.experimental import optimizers
from jax.ops import index_add

if __name__ == "__main__":
    print(optimizers, index_add)
"""

REMOVED_IN_FUNCTION = """\
import jax
from jax.ops import index_update

STRUCTURE = type(jax.tree_structure(None))


def flatten(mapping):
    leaves, structure = jax.tree_flatten(mapping)
    return index_update(leaves, 0, 1.0)


if __name__ == "__main__":
    flatten({"a": 1})
"""

REMOVED_NOT_REACHED = """\
import jax
import jax.numpy as jnp

table = jnp.zeros(3)

if __name__ == "__main__":
    for i in range(3):
        jax.ops.index_update(table, i, 1.0)
        jax.ops.index_add(table, i, 1.0)
"""

INSTALLED = "installed JAX"


def _gone(runtime: dict, statement: str, exception: str) -> None:
    assert runtime["verdict"] == "confirmed", runtime
    assert runtime["evidence"].startswith(f"`{statement}` raises {exception} with the "
                                          f"{INSTALLED} "), runtime
    assert runtime["details"]["oracle"] == "the installed JAX"
    assert runtime["details"]["statement"] == statement


def test_removed_imports_are_confirmed_without_a_run(tmp_path):
    root = _project(tmp_path, {"prog.py": REMOVED_IMPORTS})
    found = _confirm(root, "prog.py")
    assert sorted(found) == [("prog.py", 2, "JAX901"), ("prog.py", 3, "JAX901")]
    _gone(found[("prog.py", 2, "JAX901")], "from jax.experimental import optimizers",
          "ImportError")
    _gone(found[("prog.py", 3, "JAX901")], "from jax.ops import index_add", "ImportError")


def test_an_import_that_stops_the_run_before_the_watch_list_is_judged_by_the_run(tmp_path):
    # the run starts before the lint: its first import raises while the recorder still
    # waits for the list of what to watch
    root = _project(tmp_path, {"prog.py": REMOVED_IMPORTS})
    found = _confirm(root, "prog.py", "--run", "python prog.py")
    first = found[("prog.py", 2, "JAX901")]
    assert first["verdict"] == "confirmed"
    assert first["evidence"].startswith("the --run raised ImportError at line 2: cannot import "
                                        "name 'optimizers' from 'jax.experimental'")
    assert first["details"]["oracle"] == "the --run itself"
    # the next import never ran: the installed JAX answers it
    second = found[("prog.py", 3, "JAX901")]
    _gone(second, "from jax.ops import index_add", "ImportError")
    assert second["evidence"].endswith("(the other check: not-exercised: the --run never ran "
                                       "line 3: in --run `python prog.py`; a --run that reaches "
                                       "it (the branch or the input that leads there) would "
                                       "exercise it)")


def test_removed_names_in_a_module_that_fails_to_import_are_confirmed(tmp_path):
    root = _project(tmp_path, {"prog.py": REMOVED_IN_FUNCTION})
    found = _confirm(root, "prog.py", "--run", "python prog.py")
    assert sorted(found) == [("prog.py", 2, "JAX901"), ("prog.py", 4, "JAX901"),
                             ("prog.py", 8, "JAX901"), ("prog.py", 9, "JAX901")]
    _gone(found[("prog.py", 4, "JAX901")], "import jax; _ = jax.tree_structure",
          "AttributeError")
    # inside `flatten`, which the worker cannot import: the names alone answer
    _gone(found[("prog.py", 8, "JAX901")], "import jax; _ = jax.tree_flatten", "AttributeError")
    _gone(found[("prog.py", 9, "JAX901")], "from jax.ops import index_update; _ = index_update",
          "ImportError")


def test_a_removed_name_on_a_line_the_run_never_reached_is_confirmed(tmp_path):
    root = _project(tmp_path, {"prog.py": REMOVED_NOT_REACHED})
    found = _confirm(root, "prog.py", "--run", "python prog.py")
    # line 8 raised first (the run's own evidence); line 9 never ran
    assert found[("prog.py", 8, "JAX901")]["evidence"].startswith(
        "the --run raised AttributeError at line 8: ")
    reached = found[("prog.py", 9, "JAX901")]
    _gone(reached, "import jax; _ = jax.ops.index_add", "AttributeError")
    assert reached["evidence"].endswith(
        "(the other check: not-exercised: the --run never ran line 9: in --run `python "
        "prog.py`; a --run that reaches it (the branch or the input that leads there) would "
        "exercise it)")


@pytest.mark.parametrize("source, span, statement", [
    ("from jax.experimental import stax, optimizers\n", (1, 36, 1, 46),
     "from jax.experimental import optimizers"),
    ("from jax.experimental.stax import Dense\n", (1, 6, 1, 27), "import jax.experimental.stax"),
    ("import jax.experimental.optimizers as opt\n", (1, 8, 1, 42),
     "import jax.experimental.optimizers as opt"),
    ("import jax.numpy as jnp\n\ndef f(x):\n    return jnp.zeros(3)\n", (4, 12, 4, 21),
     "import jax.numpy as jnp\n_ = jnp.zeros"),
    ("from jax import tree_map as tm\ny = tm\n", (2, 5, 2, 7),
     "from jax import tree_map as tm\n_ = tm"),
])
def test_the_statement_that_evaluates_a_name_alone(source, span, statement):
    assert statement_for(source, *span) == statement


@pytest.mark.parametrize("source, span", [
    ("import mypkg\ny = mypkg.old\n", (2, 5, 2, 14)),  # not a JAX-ecosystem package
    ("def f(x):\n    return x.device_buffer\n", (2, 12, 2, 27)),  # a value, not an import
])
def test_names_that_are_not_looked_up(source, span):
    finding = dict(zip(("line", "col", "end_line", "end_col"), span), code="JAX901")
    assert check_api(source, finding) is None


def test_a_name_that_exists_is_not_reproduced():
    import jax

    finding = {"code": "JAX901", "line": 1, "col": 17, "end_line": 1, "end_col": 22}
    verdict = check_api("from jax import numpy\n", finding)
    assert verdict is not None and verdict.verdict == "not-reproduced"
    assert verdict.evidence == f"`from jax import numpy` works with the installed JAX {jax.__version__}"


X64_MAIN = """\
import jax.numpy as jnp
import numpy as np

a = jnp.ones((2, 2), dtype=np.float64)
B = jnp.array([[0, 1],
               [1, 0]], dtype=jnp.float64)

if __name__ == "__main__":
    print(a.dtype, B.dtype)
"""


def test_float64_outside_functions_is_judged_by_the_runs_warning(tmp_path):
    root = _project(tmp_path, {"prog.py": X64_MAIN})
    found = _confirm(root, "prog.py", "--run", "python prog.py")
    assert sorted(found) == [("prog.py", 4, "JAX110"), ("prog.py", 6, "JAX110")]
    one = found[("prog.py", 4, "JAX110")]
    assert one["verdict"] == "confirmed", one
    assert one["evidence"].startswith("the --run warned at line 4: UserWarning: Explicitly "
                                      "requested dtype float64 requested in ones is not "
                                      "available")
    # the warning of a statement over several lines is issued at its first line
    multi = found[("prog.py", 6, "JAX110")]
    assert multi["verdict"] == "confirmed", multi
    assert multi["evidence"].startswith("the --run warned at line 5: UserWarning: Explicitly "
                                        "requested dtype float64 requested in array")


def test_float64_outside_functions_with_x64_on_is_not_reproduced(tmp_path):
    root = _project(tmp_path, {"prog.py": X64_MAIN})
    found = _confirm(root, "prog.py", "--run", "python prog.py",
                     env={"JAX_ENABLE_X64": "1"})
    assert found[("prog.py", 4, "JAX110")] == {
        "verdict": "not-reproduced",
        "evidence": "line 4 ran 1 time(s) in --run `python prog.py` without a warning "
                    "(jax_enable_x64=True)",
        "details": {"line_runs": 1, "x64": True, "oracle": "the --run itself"}}


ITERATORS = """\
import jax
import jax.numpy as jnp
from jax import lax

batches = iter([jnp.full((2,), float(i)) for i in range(4)])
rows = iter([jnp.ones(2) * i for i in range(3)])


@jax.jit
def run_epoch(params):
    def step(i, params):
        batch = next(batches)
        return params - 0.1 * batch

    return lax.fori_loop(0, 4, step, params)


@jax.jit
def total(xs):
    def body(carry, x):
        return carry + x + next(rows), None

    return lax.scan(body, jnp.zeros(2), xs)[0]


if __name__ == "__main__":
    run_epoch(jnp.zeros(2))
    total(jnp.ones((3, 2)))
    print("left:", len(list(batches)), len(list(rows)))
"""


def test_an_iterator_spent_at_trace_time_is_confirmed(tmp_path):
    root = _project(tmp_path, {"prog.py": ITERATORS})
    found = _confirm(root, "prog.py", "--run", "python prog.py")
    assert sorted(found) == [("prog.py", 12, "JAX203"), ("prog.py", 21, "JAX203")]
    for line in (12, 21):
        rt = found[("prog.py", line, "JAX203")]
        assert rt["verdict"] == "confirmed", rt
        assert rt["evidence"].startswith(
            f"tracing ran line {line} and raised StopIteration: the Python iterator is read "
            "while JAX traces"), rt


EARLIER = """\
from functools import partial

import jax.numpy as jnp
from jax import jit


@partial(jit, static_argnums=(1,))
def f(x, v):
    return x


def main():
    x = jnp.ones(3)
    v = jnp.array([1, 2, 3])
    first = f(x, v)
    second = f(x, v)
    return first, second


if __name__ == "__main__":
    main()
"""


def test_a_line_after_the_trace_error_is_not_exercised(tmp_path):
    root = _project(tmp_path, {"prog.py": EARLIER})
    found = _confirm(root, "prog.py", "--run", "python prog.py")
    assert found[("prog.py", 15, "JAX207")]["verdict"] == "confirmed"
    later = found[("prog.py", 16, "JAX207")]
    assert later["verdict"] == "not-exercised", later
    assert later["reason"].startswith("tracing stopped earlier, at line 15, before reaching "
                                      "line 16: ValueError at line 15: Non-hashable static "
                                      "arguments are not supported")
    assert later["reason"].endswith("fix that one and run confirm again to exercise it")


NEEDS_MISSING = """\
import jax
import jax.numpy as jnp
import numpy as np
import nnlib_absent_for_jaxlint_tests as nn

a = jnp.ones((2, 2), dtype=np.float64)
{function}
if __name__ == "__main__":
    print(a)
"""

JITTED = """

@jax.jit
def f(x):
    if x.sum() > 0:
        return nn.relu(x)
    return x

"""

ENVIRONMENT = "environment: `nnlib_absent_for_jaxlint_tests` is not installed"


@pytest.mark.parametrize("function", [JITTED, ""], ids=["with-a-function", "module-level-only"])
def test_a_run_stopped_by_a_missing_package_is_an_environment_problem(tmp_path, function):
    # the run stops at the import: the lines below it never ran for want of the package,
    # not for want of an input; said once, with the fix
    root = _project(tmp_path, {"prog.py": NEEDS_MISSING.format(function=function)})
    with pytest.MonkeyPatch.context() as mp:
        mp.chdir(root)
        result = CliRunner().invoke(cli, ["confirm", "--output-format", "json", "--no-cache",
                                          "prog.py", "--run", "python prog.py"],
                                    catch_exceptions=False)
    found = {(f["location"]["row"], f["code"]): f["runtime"] for f in json.loads(result.stdout)}
    skip = {"verdict": "skipped", "reason": ENVIRONMENT,
            "details": {"environment": "nnlib_absent_for_jaxlint_tests"}}
    expected = {(6, "JAX110"): skip}
    if function:
        expected[(11, "JAX201")] = skip
    assert found == expected
    problem = (f"jaxlint: {ENVIRONMENT}, so 1 module(s) could not be imported (prog.py) and "
               f"their finding(s) are skipped ({len(expected)}); install it: pip install "
               "nnlib-absent-for-jaxlint-tests")
    assert result.stderr.splitlines().count(problem) == 1, result.stderr


def test_columns_count_characters_where_cpython_counts_bytes():
    # a finding's columns are characters; CPython's offsets are UTF-8 bytes
    source = "import jax\ny = ('é', jax.tree_flatten)\n"
    assert statement_for(source, 2, 11, 2, 27) == "import jax\n_ = jax.tree_flatten"


def test_a_submodule_not_yet_imported_is_looked_up_before_it_is_said_missing():
    import sys

    import jax

    # jax.example_libraries is a submodule `import jax` does not load: the name exists
    finding = {"code": "JAX901", "line": 2, "col": 5, "end_line": 2, "end_col": 37}
    source = "import jax\ny = jax.example_libraries.optimizers\n"
    saved = {k: sys.modules.pop(k) for k in list(sys.modules)
             if k.startswith("jax.example_libraries")}
    try:
        if hasattr(jax, "example_libraries"):
            delattr(jax, "example_libraries")
        verdict = check_api(source, finding)
    finally:
        sys.modules.update(saved)
    assert verdict is not None and verdict.verdict == "not-reproduced", verdict
    gone = check_api("import jax\ny = jax.example_libraries.absent_name\n",
                     {"code": "JAX901", "line": 2, "col": 5, "end_line": 2, "end_col": 38})
    assert gone is not None and gone.verdict == "confirmed"
    assert gone.evidence.startswith("`import jax; _ = jax.example_libraries.absent_name` raises "
                                    "AttributeError with the installed JAX ")


def test_a_module_whose_findings_need_no_import_still_names_the_missing_package(tmp_path):
    source = "import jax\nimport nnlib_absent_for_jaxlint_tests\n\n\ndef f(x):\n" \
             "    return jax.tree_map(lambda v: v, x)\n"
    root = _project(tmp_path, {"prog.py": source})
    with pytest.MonkeyPatch.context() as mp:
        mp.chdir(root)
        result = CliRunner().invoke(cli, ["confirm", "--output-format", "json", "--no-cache",
                                          "prog.py"], catch_exceptions=False)
    (found,) = json.loads(result.stdout)
    assert found["runtime"]["verdict"] == "confirmed"
    problem = (f"jaxlint: {ENVIRONMENT}, so 1 module(s) could not be imported (prog.py) (their "
               "findings were answered without importing them); install it: pip install "
               "nnlib-absent-for-jaxlint-tests")
    assert result.stderr.splitlines().count(problem) == 1, result.stderr


X64_HELPER = """\
import jax.numpy as jnp
import numpy as np

table = jnp.zeros(3, dtype=np.float64)
"""

X64_LATER = """\
import jax.numpy as jnp
import numpy as np

a = jnp.ones(2, dtype=np.float64)
"""

X64_AFTER_BLOCK = """\
import warnings

with warnings.catch_warnings():
    import helper

import later

print(helper.table.dtype, later.a.dtype)
"""


def test_a_warning_after_a_catch_warnings_block_is_still_seen(tmp_path):
    # the hook is first put in place inside the block (helper's line), which restores the
    # warnings.showwarning it found when it ends: later's line must still be seen
    root = _project(tmp_path, {"helper.py": X64_HELPER, "later.py": X64_LATER,
                               "main.py": X64_AFTER_BLOCK})
    found = _confirm(root, ".", "--run", "python main.py")
    assert sorted(found) == [("helper.py", 4, "JAX110"), ("later.py", 4, "JAX110")]
    for (name, line, _), rt in found.items():
        assert rt["verdict"] == "confirmed", (name, rt)
        assert rt["evidence"].startswith(f"the --run warned at line {line}: UserWarning: "
                                         "Explicitly requested dtype float64"), rt


X64_IGNORED = """\
import warnings

import jax.numpy as jnp
import numpy as np

warnings.simplefilter("ignore")
a = jnp.ones(2, dtype=np.float64)

if __name__ == "__main__":
    print(a.dtype)
"""


def test_a_float64_line_run_while_warnings_are_ignored_is_confirmed_by_the_probes(tmp_path):
    # the user's filter hides the warning from confirm's own module-level check (on its
    # own: not-exercised, no refutation); the probes `jaxlint observe` shares with
    # confirm see JAX's warning before the filter does, so the run confirms the line
    root = _project(tmp_path, {"prog.py": X64_IGNORED})
    found = _confirm(root, "prog.py", "--run", "python prog.py")
    rt = found[("prog.py", 7, "JAX110")]
    assert rt["verdict"] == "confirmed"
    assert rt["evidence"] == (
        "observed in --run `python prog.py`: The run requested float64 without x64: Explicitly "
        "requested dtype float64 requested in ones is not available, and will be truncated to "
        "dtype float32.")
    assert rt["details"]["observed"] is True
    assert rt["details"]["before"] == {
        "verdict": "not-exercised",
        "reason": "line 7 ran in --run `python prog.py` while a warnings filter ignored JAX's "
                  "dtype warning: no evidence either way; a --run that leaves UserWarning "
                  "shown would exercise it",
        "details": {"line_runs": 1, "x64": False}}
