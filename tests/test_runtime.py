"""The runtime companion (`jaxlint confirm` / `jaxlint bench`), with real JAX on CPU.

Skipped cleanly when JAX cannot be imported.  Fixtures: tests/fixtures/runtime/.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("jax")

from click.testing import CliRunner  # noqa: E402

from jaxlint.cli import cli  # noqa: E402
from jaxlint.findings import FileResult, Finding, Severity  # noqa: E402
from jaxlint.runtime.specs import (SpecError, parse_spec, read_runtime_table,  # noqa: E402
                                   spec_from_annotation)

pytestmark = pytest.mark.slow  # real JAX in subprocesses (`make test-fast` skips it)

FIXTURES = Path(__file__).parent / "fixtures" / "runtime"


def _run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(cli, list(args), catch_exceptions=False)
    return result.exit_code, result.output


def _confirm_json(*args: str) -> list[dict]:
    code, out = _run("confirm", "--no-cache", "--output-format", "json", *args)
    assert code in (0, 1), out
    return json.loads(out)


@pytest.fixture(scope="module")
def confirmed_fixtures() -> list[dict]:
    return _confirm_json(str(FIXTURES / "sharp_bits.py"), str(FIXTURES / "more_rules.py"))


def test_every_checkable_finding_is_confirmed(confirmed_fixtures):
    from jaxlint.runtime.rules import RuntimeCheck, lookup

    assert confirmed_fixtures, "the fixtures must produce findings"
    for f in confirmed_fixtures:
        if not isinstance(lookup(f["code"]), RuntimeCheck):
            continue
        rt = f["runtime"]
        assert rt["verdict"] == "confirmed", (f["code"], f["function"], rt)
    codes = {f["code"] for f in confirmed_fixtures if f["runtime"]["verdict"] == "confirmed"}
    assert {"JAX101", "JAX102", "JAX110", "JAX201", "JAX202", "JAX203", "JAX204", "JAX205",
            "JAX206", "JAX301", "JAX401", "JAX402", "JAX404", "JAX406", "JAX502", "JAX504",
            "JAX506", "JAX120", "JAX121"} <= codes


def test_every_rule_has_a_runtime_entry():
    """Each rule code maps to its check (a function object) or the reason it has none."""
    from jaxlint.rules import all_rules
    from jaxlint.runtime import checks
    from jaxlint.runtime.rules import TABLE, NoCheck, RuntimeCheck

    codes = {r.code for r in all_rules()}
    assert codes == set(TABLE)
    for code, entry in TABLE.items():
        if isinstance(entry, RuntimeCheck):
            assert callable(entry.check) and entry.check.__module__ == checks.__name__, code
        else:
            assert isinstance(entry, NoCheck) and entry.reason, code
    # each rule states its check on itself (and on its page): a check, or "None: " and why
    for rule in all_rules():
        assert rule.runtime_check, rule.code
        assert rule.runtime_check.startswith("None:") == isinstance(TABLE[rule.code], NoCheck), rule.code


def test_docs_state_every_rules_runtime_check():
    from jaxlint.runtime.rules import TABLE

    text = (Path(__file__).parent.parent / "docs" / "runtime.md").read_text()
    section = text[text.index("## What each rule's check does"):text.index("## Benchmarks")]
    rows = [line for line in section.splitlines() if line.startswith("| JAX")]
    named = set()
    for row in rows:
        cell = row.split("|")[1]
        for part in cell.split(","):
            part = part.strip()
            if "-" in part:
                lo, hi = (int(p[3:]) for p in part.split("-"))
                named.update(f"JAX{n:03d}" for n in range(lo, hi + 1))
            else:
                named.add(part)
    assert set(TABLE) <= named, sorted(set(TABLE) - named)


def test_runtime_modules_import_one_way():
    """checks and bench never import each other nor the worker; the lowest module
    (verdicts) imports nothing from the package."""
    import ast

    pkg = Path(__file__).parent.parent / "jaxlint" / "runtime"

    def imports(name: str) -> set[str]:
        tree = ast.parse((pkg / f"{name}.py").read_text())
        out = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module:
                out.add(node.module)
                out.update(f"{node.module}.{a.name}" for a in node.names)
            elif isinstance(node, ast.Import):
                out.update(a.name for a in node.names)
        return {m.split(".")[2] for m in out if m.startswith("jaxlint.runtime.")}

    assert imports("verdicts") == set()
    assert not imports("checks") & {"bench", "worker", "rules", "driver"}
    assert not imports("bench") & {"checks", "worker", "rules", "driver"}
    assert not imports("context") & {"checks", "bench", "worker", "rules", "driver"}


def test_evidence(confirmed_fixtures):
    by = {(f["code"], f["function"]): f["runtime"] for f in confirmed_fixtures}
    assert by[("JAX101", "inplace")]["details"]["exception"] == "TypeError"
    assert by[("JAX201", "branchy")]["details"]["exception"] == \
        "jax.errors.TracerBoolConversionError"
    assert by[("JAX202", "to_int")]["details"]["exception"] == \
        "jax.errors.ConcretizationTypeError"
    reuse = by[("JAX301", "reuse")]
    assert reuse["details"]["typed_key_substituted"] is True
    assert reuse["details"]["use_sites"] == [73, 74]
    assert "float32" in by[("JAX110", "wide")]["details"]["output_dtypes"]
    assert any("annotation" in s for s in by[("JAX110", "wide")]["inputs"])
    assert by[("JAX504", "counter_static")]["details"]["compiles"]["jit(_power)"] == 4
    assert by[("JAX502", "long_loop")]["details"]["eqns"] >= 200


def _twin_findings(path: Path) -> list[Finding]:
    """Synthetic findings on the `# twin: CODE` lines of the clean twins."""
    lines = path.read_text().splitlines()
    out = []
    for n, line in enumerate(lines, 1):
        m = re.search(r"# twin: (JAX\d+)", line)
        if not m:
            continue
        i = next(i for i in range(n - 1, -1, -1) if re.match(r"\s*def \w+", lines[i]))
        fn = re.match(r"\s*def (\w+)", lines[i]).group(1)
        if lines[i].startswith(" "):  # a method: qualify it with its class
            cls = next(re.match(r"class (\w+)", lines[j]).group(1) for j in range(i, -1, -1)
                       if lines[j].startswith("class "))
            fn = f"{cls}.{fn}"
        out.append(Finding(code=m.group(1), name="twin", message="twin", path=str(path),
                           line=n, col=1, end_line=n, end_col=len(line), severity=Severity.ERROR,
                           function=fn))
    return out


def test_clean_twins_are_not_reproduced():
    from jaxlint.workspace.config import ConfigStore, Overrides
    from jaxlint.workspace.ruleinfo import load_rule_infos
    from jaxlint.runtime import run_runtime
    from jaxlint.runtime.specs import RuntimeOptions

    results = [FileResult(path=str(p), findings=_twin_findings(p))
               for p in (FIXTURES / "sharp_bits.py", FIXTURES / "more_rules.py")]
    assert sum(len(r.findings) for r in results) >= 15
    store = ConfigStore(load_rule_infos(None), Overrides())
    report = run_runtime(results, store, RuntimeOptions(), set())
    for f in report.findings:
        assert f.runtime["verdict"] == "not-reproduced", (f.code, f.function, f.runtime)


def test_broken_modules_are_skipped_with_the_reason():
    found = _confirm_json("--timeout", "3", str(FIXTURES / "broken"))
    by = {(Path(f["filename"]).name, f["function"]): f["runtime"] for f in found}
    assert by[("raises_on_import.py", "branchy")]["verdict"] == "skipped"
    assert "failed to import: RuntimeError" in by[("raises_on_import.py", "branchy")]["reason"]
    assert "timed out" in by[("hangs_on_import.py", "branchy")]["reason"]
    assert "SIGSEGV" in by[("segfaults_on_import.py", "branchy")]["reason"]
    assert "timed out" in by[("hangs_in_one.py", "hangs")]["reason"]
    # the worker was restarted for the function after the one that hung
    assert by[("hangs_in_one.py", "branchy")]["verdict"] == "confirmed"


@pytest.fixture(scope="module")
def bench_report() -> dict:
    code, out = _run("bench", "--no-cache", "--runs", "3", "--output-format", "json",
                     str(FIXTURES / "perf.py"))
    assert code in (0, 1), out
    return json.loads(out)


def test_bench_loop_unrolling(bench_report):
    pair = next(p for p in bench_report["pairs"] if p["function"] == "unrolled")
    orig, fast = pair["original"], pair["fixed"]
    assert orig["eqns"] == 900 and fast["eqns"] == 1  # 300 steps x 3 equations vs one scan
    assert fast["compile_s"] < orig["compile_s"]
    assert fast["first_call_s"] < orig["first_call_s"]
    assert pair["outputs_agree"] is True
    assert orig["steady_min_s"] <= orig["steady_median_s"] <= orig["steady_max_s"]


def test_bench_jit_in_loop(bench_report):
    f = next(f for f in bench_report["findings"] if f["function"] == "jit_in_loop")
    assert f["runtime"]["verdict"] == "confirmed"
    b = f["runtime"]["bench"]
    assert b["original"]["compiles_first_call"] == 5
    assert b["original"]["compiles_per_steady_call"] == 5
    assert b["fixed"]["compiles_per_steady_call"] == 0
    assert b["outputs_agree"] is True
    assert b["fixed"]["steady_median_s"] < b["original"]["steady_median_s"]


def test_bench_inplace_and_at_fixes(bench_report):
    by = {f["code"]: f["runtime"]["bench"] for f in bench_report["findings"]
          if f["code"] in ("JAX101", "JAX102")}
    assert "not_run" in by["JAX101"]["original"]
    assert by["JAX101"]["fixed"]["steady_median_s"] > 0
    assert by["JAX101"]["fixed"]["eqns"] >= 1
    assert by["JAX102"]["outputs_agree"] is False  # the original drops the update
    assert "expected" in by["JAX102"]["outputs_note"]
    assert "memory" in by["JAX102"]["fixed"]


def test_bench_compares_the_where_fix_on_gradients(bench_report):
    (f,) = [f for f in bench_report["findings"] if f["code"] == "JAX120"]
    b = f["runtime"]["bench"]
    assert b["gradients"] == {"at": "argument 0 = 0", "original_nan": 8, "fixed_nan": 0,
                              "agree": False}
    assert b["outputs_agree"] is True  # the forward values were never the problem


ENTROPIES = """\
import jax.numpy as jnp

JAXLINT_INPUTS = {"scaled_entropy": ["f32[]", "f32[8]"], "tempered": ["f32[]", "f32[8]", "f32[8]"]}


def scaled_entropy(scale, p):
    return scale * -jnp.sum(jnp.where(p > 0, p * jnp.log(p), 0.0))


def tempered(t, w, p):
    return t * jnp.sum(w) - jnp.sum(jnp.where(p > 0, p * jnp.log(p), 0.0))
"""


def test_bench_differentiates_every_floating_argument(tmp_path):
    """The masked `log` takes the second (or third) argument: the gradient comparison
    differentiates every floating-point argument, as confirm's check does (it took only
    the first, whose gradient is finite: "0 NaN, agree", while the original's gradient
    with respect to `p` holds NaNs that the double-where fix removes)."""
    (tmp_path / "ent.py").write_text(ENTROPIES)
    code, out = _run("bench", "--no-cache", "--runs", "3", "--output-format", "json",
                     str(tmp_path / "ent.py"))
    assert code == 1, out
    got = {f["function"]: f["runtime"]["bench"]["gradients"] for f in json.loads(out)["findings"]}
    assert got == {
        "scaled_entropy": {"at": "argument 0 = 0", "original_nan": 3, "fixed_nan": 0,
                           "agree": False},
        "tempered": {"at": "argument 0 = 0", "original_nan": 7, "fixed_nan": 0, "agree": False},
    }


def test_bench_table_explains_every_empty_cell():
    result = CliRunner(env={"COLUMNS": "600"}).invoke(
        cli, ["bench", "--no-cache", "--runs", "3", str(FIXTURES / "perf.py")])
    code, out = result.exit_code, result.stdout
    assert code == 1
    assert "gradients at argument 0 = 0: original 8 NaN, fixed 0 NaN" in out
    assert "not run: it raises" in out
    table = out[out.index("Benchmarks"):]
    assert " - " not in table.replace("[min..max]", "")


def test_table_and_sarif_output():
    path = str(FIXTURES / "sharp_bits.py")
    code, out = _run("confirm", "--no-cache", path)
    assert code == 1
    assert "Runtime verdicts" in out and "confirmed" in out
    code, out = _run("confirm", "--no-cache", "--output-format", "sarif", path)
    sarif = json.loads(out)
    results = sarif["runs"][0]["results"]
    assert results and all(r["properties"]["runtime"]["verdict"] == "confirmed" for r in results)


def test_inputs_from_pyproject(tmp_path):
    (tmp_path / "pyproject.toml").write_text(
        '[tool.jaxlint.runtime]\ndefault-dim = 4\n'
        'inputs = { "mod.f" = ["f32[3]", "static:2"] }\n')
    (tmp_path / "mod.py").write_text(
        "import jax\nfrom functools import partial\n\n\n"
        "@partial(jax.jit, static_argnums=1)\ndef f(x, n):\n    if x.sum() > n:\n"
        "        return x\n    return -x\n\n\ndef g(x):\n    return x\n")
    found = _confirm_json(str(tmp_path / "mod.py"), "--config", str(tmp_path / "pyproject.toml"))
    rt = found[0]["runtime"]
    assert rt["verdict"] == "confirmed"
    assert rt["inputs"] == ["x: f32[3] ([tool.jaxlint.runtime] inputs)",
                            "n: static:2 ([tool.jaxlint.runtime] inputs)"]


def test_missing_inputs_are_skipped(tmp_path):
    (tmp_path / "m.py").write_text(
        "import jax\n\n\n@jax.jit\ndef f(x):\n    if x.sum() > 0:\n        return x\n"
        "    return -x\n")
    rt = _confirm_json(str(tmp_path / "m.py"))[0]["runtime"]
    assert rt["verdict"] == "skipped" and "no input for argument `x`" in rt["reason"]


def test_specs():
    s = parse_spec("f32[128,128]")
    assert (s.kind, s.dtype, s.shape) == ("array", "float32", (128, 128))
    assert parse_spec("i32[]").shape == ()
    assert parse_spec("static:(1, 2)").value == (1, 2)
    assert parse_spec("key").kind == "key"
    assert parse_spec("f32[n,m]", default_dim=5).shape == (5, 5)
    with pytest.raises(SpecError):
        parse_spec("float[3]")
    jt = spec_from_annotation('Float[Array, "batch dim"]', default_dim=6)
    assert (jt.dtype, jt.shape) == ("float32", (6, 6))
    assert spec_from_annotation("jax.Array", 8).shape == (8,)
    assert spec_from_annotation("Something", 8) is None
    with pytest.raises(SpecError):
        read_runtime_table({"inputs": {"m.f": ["nope[1]"]}}, "pyproject.toml")
    with pytest.raises(SpecError):
        read_runtime_table({"bogus": 1}, "pyproject.toml")


def test_static_engine_does_not_import_jax():
    code = ("import sys, jaxlint.cli, jaxlint.runtime, jaxlint.runtime.driver;"
            "assert 'jax' not in sys.modules, 'jax imported'")
    subprocess.run([sys.executable, "-c", code], check=True)


def test_package_modules_and_nested_bodies(tmp_path):
    """A module inside a package imports as part of it (relative imports work),
    and a finding in a scan body is confirmed by tracing the enclosing function."""
    pkg = tmp_path / "pkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "helpers.py").write_text("SCALE = 2.0\n")
    (pkg / "loop.py").write_text(
        "import jax\nimport jax.numpy as jnp\nfrom jax import lax\n\nfrom .helpers import SCALE\n\n"
        "JAXLINT_INPUTS = {'run': ['f32[5]']}\n\n\n"
        "def run(xs):\n"
        "    def body(carry, x):\n"
        "        carry = carry + 1 if x > 0 else carry\n"
        "        return carry, x * SCALE\n"
        "    return lax.scan(body, 0.0, xs)\n")
    found = _confirm_json(str(pkg / "loop.py"))
    assert [(f["code"], f["function"]) for f in found] == [("JAX201", "run.body")]
    rt = found[0]["runtime"]
    assert rt["verdict"] == "confirmed", rt
    assert rt["details"]["exception"] == "jax.errors.TracerBoolConversionError"
    assert "enclosing `run`" in rt["evidence"]
