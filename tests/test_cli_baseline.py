"""The drift-proof baseline (--write-baseline / --baseline / baseline = ...) and
the GitLab Code Quality output, through the command line."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path

import jsonschema
import pytest
from click.testing import CliRunner

from jaxlint.cli import cli

SCHEMA = Path(__file__).parent / "data" / "sarif-schema-2.1.0.json"

SRC = '''import jax
import jax.numpy as jnp


@jax.jit
def step(x):
    if x.sum() > 0:
        x = x + 1
    return x


class Model:
    def fill(self):
        y = jnp.zeros(3)
        y[0] = 1.0
        y[0] = 1.0
        return y
'''

# the same code moved down, reordered (Model first), re-indented (2 spaces),
# re-spaced and commented: not one finding is new
DRIFTED = '''"""A module docstring that pushes everything down."""
import os
import jax
import jax.numpy as jnp

SETTING = os.environ.get("X")


class Model:
  def fill(self):
    y = jnp.zeros(3)
    y[0]  =  1.0   # first
    y[0] = 1.0
    return y


@jax.jit
def step(x):
  if x.sum()>0:  # why not
    x = x + 1
  return x
'''

IF_MSG = ("Python `if` on a traced value: it depends on the traced argument `x` of `{fn}` "
          "(decorated with @jax.jit); this raises TracerBoolConversionError. Use `jax.lax.cond` "
          "or `jnp.where`; or, if `x` is a Python value, mark it static (static_argnums=0)")
SET_MSG = "JAX arrays are immutable: `y[0] = ...` raises TypeError. Use `y = y.at[0].set(...)`"
STALE_HINT = "`jaxlint check --baseline b.json --write-baseline b.json`"


@pytest.fixture
def project(tmp_path: Path, monkeypatch) -> Path:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "m.py").write_text(SRC)
    return tmp_path


def _run(*args: str):
    return CliRunner().invoke(cli, ["check", "--no-cache", *args])


def _write_baseline(name: str = "b.json") -> dict:
    result = _run("m.py", "--write-baseline", name)
    assert result.exit_code == 0, result.output
    assert result.stderr == f"Wrote 3 findings to the baseline {name}.\n"
    assert result.stdout == ""
    return json.loads(Path(name).read_text())


def test_write_baseline_records_line_free_identities(project: Path) -> None:
    doc = _write_baseline()
    assert doc["jaxlint-baseline"] == 1
    assert doc["findings"] == [
        {"code": "JAX101", "path": "m.py", "scope": "Model.fill", "text": "y[0] = 1.0",
         "occurrence": 0, "message": SET_MSG},
        {"code": "JAX101", "path": "m.py", "scope": "Model.fill", "text": "y[0] = 1.0",
         "occurrence": 1, "message": SET_MSG},
        {"code": "JAX201", "path": "m.py", "scope": "step", "text": "if x.sum() > 0:",
         "occurrence": 0, "message": IF_MSG.format(fn="step")},
    ]
    assert all("line" not in e for e in doc["findings"])


def test_baseline_survives_moves_reordering_and_reindenting(project: Path) -> None:
    _write_baseline()
    (project / "m.py").write_text(DRIFTED)
    result = _run("m.py", "--baseline", "b.json", "--output-format", "concise")
    assert result.exit_code == 0, result.output
    assert result.stdout == "All checks passed! 3 findings hidden by the baseline b.json.\n"
    # without the baseline the same three are still there, on other lines
    plain = _run("m.py", "--output-format", "concise")
    assert [ln.split(" ")[0] for ln in plain.stdout.splitlines()[:-1]] == [
        "m.py:12:5:", "m.py:13:5:", "m.py:19:6:"]


def test_only_new_findings_are_reported_and_fail(project: Path) -> None:
    _write_baseline()
    drifted = DRIFTED.replace("    y[0] = 1.0\n", "    y[0] = 1.0\n    y[0] = 1.0\n")
    drifted += "\n\n@jax.jit\ndef other(x):\n  if x.sum() > 0:\n    x = x + 1\n  return x\n"
    (project / "m.py").write_text(drifted)
    result = _run("m.py", "--baseline", "b.json", "--output-format", "concise")
    assert result.exit_code == 1
    # the third identical assignment is the new one (occurrence 2), and `other`'s `if`
    assert result.stdout.splitlines() == [
        f"m.py:14:5: JAX101 [*] {SET_MSG}",
        f"m.py:27:6: JAX201 {IF_MSG.format(fn='other')}",
        "Found 2 errors (1 fixable with --fix). 3 findings hidden by the baseline b.json.",
    ]


def test_stale_entries_are_counted_and_pruned(project: Path) -> None:
    _write_baseline()
    gone = SRC.replace("        y[0] = 1.0\n", "", 1).replace("    if x.sum() > 0:\n        x = x + 1\n", "")
    (project / "m.py").write_text(gone)
    result = _run("m.py", "--baseline", "b.json")
    assert result.exit_code == 0
    assert result.stdout == (
        "All checks passed! 1 finding hidden by the baseline b.json; 2 baselined findings "
        f"no longer occur (drop them with {STALE_HINT}).\n")
    # a new finding is not recorded while pruning
    (project / "m.py").write_text(gone + "\n\n@jax.jit\ndef g(x):\n    if x > 0:\n        x = -x\n    return x\n")
    pruned = _run("m.py", "--baseline", "b.json", "--write-baseline", "b.json")
    assert pruned.exit_code == 0
    assert pruned.stderr == ("Wrote 1 finding to the baseline b.json; dropped 2 that no longer occur; "
                             "1 new finding was not recorded (add --no-baseline to record every "
                             "finding).\n")
    assert [e["occurrence"] for e in json.loads(Path("b.json").read_text())["findings"]] == [0]
    again = _run("m.py", "--baseline", "b.json", "--output-format", "concise")
    assert again.exit_code == 1
    assert again.stdout.splitlines()[-1] == "Found 1 error. 1 finding hidden by the baseline b.json."
    # --no-baseline: everything is recorded again
    full = _run("m.py", "--no-baseline", "--write-baseline", "b.json")
    assert full.stderr == "Wrote 2 findings to the baseline b.json.\n"


def test_files_outside_the_linted_paths_are_not_stale(project: Path) -> None:
    (project / "n.py").write_text(SRC)
    result = _run(".", "--write-baseline", "b.json")
    assert result.stderr == "Wrote 6 findings to the baseline b.json.\n"
    only_m = _run("m.py", "--baseline", "b.json")
    assert only_m.stdout == "All checks passed! 3 findings hidden by the baseline b.json.\n"
    # a recorded file that is gone from a linted folder is stale
    (project / "n.py").unlink()
    whole = _run(".", "--baseline", "b.json")
    assert whole.stdout == (
        "All checks passed! 3 findings hidden by the baseline b.json; 3 baselined findings "
        f"no longer occur (drop them with {STALE_HINT}).\n")


def test_a_file_that_does_not_parse_keeps_its_entries(project: Path) -> None:
    (project / "n.py").write_text(SRC)
    assert _run(".", "--write-baseline", "b.json").stderr == "Wrote 6 findings to the baseline b.json.\n"
    (project / "n.py").write_text(SRC + "def broken(:\n")  # half-typed: JAX001, its findings unknown
    result = _run(".", "--baseline", "b.json", "--output-format", "concise")
    assert result.exit_code == 1
    assert result.stdout.splitlines() == [
        "n.py:18:12: JAX001 The file does not parse: invalid syntax",
        "Found 1 error. 3 findings hidden by the baseline b.json.",
    ]
    pruned = _run(".", "--baseline", "b.json", "--write-baseline", "b.json")
    assert pruned.stderr == ("Wrote 6 findings to the baseline b.json; 1 new finding was not recorded "
                             "(add --no-baseline to record every finding); kept 3 of files not checked "
                             "this time.\n")
    (project / "n.py").write_text(SRC)  # repaired: nothing is new
    assert _run(".", "--baseline", "b.json").stdout == "All checks passed! 6 findings hidden by the baseline b.json.\n"
    # a run over m.py alone keeps n.py's entries when it prunes
    assert _run("m.py", "--baseline", "b.json", "--write-baseline", "b.json").stderr == (
        "Wrote 6 findings to the baseline b.json; kept 3 of files not checked this time.\n")


def _sarif(*args: str) -> dict:
    result = _run("m.py", "--output-format", "sarif", *args)
    log = json.loads(result.stdout)
    jsonschema.validate(log, json.loads(SCHEMA.read_text()))
    return log


def test_sarif_baseline_states_and_stable_fingerprints(project: Path) -> None:
    before = {(r["ruleId"], r["locations"][0]["physicalLocation"]["region"]["startLine"]):
              r["partialFingerprints"]["jaxlint/v1"] for r in _sarif()["runs"][0]["results"]}
    assert len(set(before.values())) == 3  # identical statements differ by occurrence
    assert all("baselineState" not in r for r in _sarif()["runs"][0]["results"])
    _write_baseline()
    # drift, one of the two assignments gone, one new finding
    (project / "m.py").write_text(
        DRIFTED.replace("    y[0] = 1.0\n", "", 1)
        + "\n\n@jax.jit\ndef other(x):\n  if x.sum() > 0:\n    x = x + 1\n  return x\n")
    log = _sarif("--baseline", "b.json")
    results = log["runs"][0]["results"]
    states = [(r["ruleId"], r["baselineState"],
               r["locations"][0]["physicalLocation"].get("region", {}).get("startLine"))
              for r in results]
    assert states == [
        ("JAX201", "new", 25),
        ("JAX101", "unchanged", 12),
        ("JAX201", "unchanged", 18),
        ("JAX101", "absent", None),
    ]
    fp = {s: r["partialFingerprints"]["jaxlint/v1"] for s, r in zip(states, results)}
    # the fingerprints of the unchanged findings are the ones they had before the drift
    assert fp[("JAX101", "unchanged", 12)] == before[("JAX101", 15)]
    assert fp[("JAX201", "unchanged", 18)] == before[("JAX201", 7)]
    assert fp[("JAX101", "absent", None)] == before[("JAX101", 16)]
    unchanged = results[1]
    assert unchanged["suppressions"] == [
        {"kind": "external", "justification": "recorded in the baseline b.json"}]
    absent = results[3]
    assert absent["locations"] == [{"physicalLocation": {
        "artifactLocation": {"uri": "m.py", "uriBaseId": "%SRCROOT%"}}}]
    assert absent["message"]["text"] == f"{SET_MSG} (no longer found in `Model.fill`: `y[0] = 1.0`)"


def test_baseline_in_configuration(project: Path) -> None:
    _write_baseline()
    Path("pyproject.toml").write_text('[tool.jaxlint]\nbaseline = "b.json"\n')
    result = _run("m.py")
    assert result.exit_code == 0
    assert result.stdout == "All checks passed! 3 findings hidden by the baseline b.json.\n"
    assert _run("m.py", "--no-baseline").exit_code == 1
    Path("pyproject.toml").write_text("[tool.jaxlint]\nbaseline = 3\n")
    bad = _run("m.py")
    assert bad.exit_code == 2
    assert bad.stderr.endswith("[tool.jaxlint] key 'baseline' must be a file name (string), got integer 3\n")


@pytest.mark.parametrize(
    "content, message",
    [
        ("{not json", "b.json: not a jaxlint baseline (invalid JSON: Expecting property name "
                      "enclosed in double quotes: line 1 column 2 (char 1))"),
        ('[{"code": "JAX101"}]', 'b.json: not a jaxlint baseline (no "jaxlint-baseline" key)'),
        ('{"version": "2.1.0", "runs": []}', 'b.json: not a jaxlint baseline (no "jaxlint-baseline" key)'),
        ('{"jaxlint-baseline": 9, "findings": []}',
         "b.json: baseline format 9 is not supported by this jaxlint (expected 1)"),
        ('{"jaxlint-baseline": 1, "findings": {}}', 'b.json: broken baseline: "findings" must be a list'),
        ('{"jaxlint-baseline": 1, "findings": [{"code": "JAX101", "path": "m.py"}]}',
         "b.json: broken baseline: finding 1 needs code, path, scope, text (strings) and "
         "occurrence (an integer >= 0)"),
    ],
)
def test_broken_or_foreign_baseline_is_one_line(project: Path, content: str, message: str) -> None:
    Path("b.json").write_text(content)
    result = _run("m.py", "--baseline", "b.json")
    assert result.exit_code == 2
    hint = "; write a new one with `jaxlint check --no-baseline --write-baseline b.json`"
    assert result.stderr == f"error: {message}{hint}\n"
    assert result.stdout == ""


def test_missing_baseline_is_one_line(project: Path) -> None:
    result = _run("m.py", "--baseline", "nope.json")
    assert result.exit_code == 2
    assert result.stderr == ("error: nope.json: baseline file not found "
                             "(write it with `jaxlint check --write-baseline nope.json`)\n")


@pytest.mark.parametrize("fmt", ["full", "concise", "json", "sarif", "github", "gitlab", "junit"])
def test_baseline_with_every_output_format(project: Path, fmt: str) -> None:
    _write_baseline()
    (project / "m.py").write_text(SRC + "\n\n@jax.jit\ndef g(x):\n    if x > 0:\n        x = -x\n    return x\n")
    result = _run("m.py", "--baseline", "b.json", "--output-format", fmt)
    assert result.exit_code == 1
    out = result.stdout
    if fmt in ("full", "concise"):
        assert out.splitlines()[-1] == "Found 1 error. 3 findings hidden by the baseline b.json."
        assert out.count("m.py:22:8: JAX201") == 1 and "m.py:7:" not in out
        assert result.stderr == ""
        return
    # machine formats: only the new finding; the baseline's note goes to stderr
    assert result.stderr == "3 findings hidden by the baseline b.json.\n"
    if fmt == "json":
        assert [(d["code"], d["location"]["row"]) for d in json.loads(out)] == [("JAX201", 22)]
    elif fmt == "gitlab":
        assert [(d["check_name"], d["location"]["lines"]["begin"]) for d in json.loads(out)] == [("JAX201", 22)]
    elif fmt == "github":
        assert len(out.splitlines()) == 1 and out.startswith("::error title=jaxlint (JAX201),file=m.py,line=22,")
    elif fmt == "junit":
        assert ET.fromstring(out).get("failures") == "1"
    elif fmt == "sarif":
        states = [r["baselineState"] for r in json.loads(out)["runs"][0]["results"]]
        assert states == ["new", "unchanged", "unchanged", "unchanged"]


def test_baseline_with_fix(project: Path) -> None:
    _write_baseline()
    (project / "m.py").write_text(SRC + "\n\n@jax.jit\ndef g(x):\n    if x > 0:\n        x = -x\n    return x\n")
    result = _run("m.py", "--baseline", "b.json", "--fix", "--output-format", "concise")
    assert result.exit_code == 1
    assert "y = y.at[0].set(1.0)" in (project / "m.py").read_text()
    assert result.stdout.splitlines() == [
        f"m.py:22:8: JAX201 {IF_MSG.format(fn='g')}",
        "Found 3 errors (2 fixed, 1 remaining). 1 finding hidden by the baseline b.json; "
        f"2 baselined findings no longer occur (drop them with {STALE_HINT}).",
    ]


def test_write_baseline_refuses_fix(project: Path) -> None:
    result = _run("m.py", "--write-baseline", "b.json", "--fix")
    assert result.exit_code == 2
    assert result.stderr == ("error: --write-baseline cannot be combined with --fix, --fix-only, "
                             "--diff or --add-noqa\n")
    assert not Path("b.json").exists()


# ----------------------------------------------------------------------------- gitlab


def test_gitlab_code_quality_report(project: Path) -> None:
    (project / "m.py").write_text(SRC + "\nZ = jnp.zeros(2, dtype=jnp.float64)\n")
    result = _run("m.py", "--output-format", "gitlab")
    assert result.exit_code == 1
    issues = json.loads(result.stdout)
    assert [sorted(i) for i in issues] == [
        ["check_name", "description", "fingerprint", "location", "severity"]] * 4
    first = issues[0]
    assert first["description"] == f"JAX201 {IF_MSG.format(fn='step')}"
    assert first["check_name"] == "JAX201"
    assert first["severity"] == "major"
    assert first["location"] == {"path": "m.py", "lines": {"begin": 7, "end": 7}}
    assert [(i["check_name"], i["severity"], i["location"]["lines"]["begin"]) for i in issues] == [
        ("JAX201", "major", 7), ("JAX101", "major", 15), ("JAX101", "major", 16),
        ("JAX110", "minor", 19)]
    # unique per finding, equal to the SARIF fingerprints, unchanged by line drift
    prints = [i["fingerprint"] for i in issues]
    assert len(set(prints)) == 4 and all(len(p) == 32 for p in prints)
    sarif = json.loads(_run("m.py", "--output-format", "sarif").stdout)
    assert prints == [r["partialFingerprints"]["jaxlint/v1"] for r in sarif["runs"][0]["results"]]
    (project / "m.py").write_text("# moved\n\n" + SRC + "\nZ = jnp.zeros(2, dtype=jnp.float64)\n")
    moved = json.loads(_run("m.py", "--output-format", "gitlab").stdout)
    assert [i["fingerprint"] for i in moved] == prints
    assert [i["location"]["lines"]["begin"] for i in moved] == [9, 17, 18, 21]


@pytest.mark.slow
def test_warm_baseline_and_sarif_runs_do_not_import_libcst(project: Path) -> None:
    import subprocess
    import sys

    _write_baseline()
    code = (
        "import sys\nfrom jaxlint.cli import main\n"
        "try:\n    main(sys.argv[1:])\n"
        "except SystemExit as e:\n    code = e.code\n"
        "print('LIBCST', 'libcst' in sys.modules, code)\n"
    )
    for args in (["m.py", "--baseline", "b.json", "-q"], ["m.py", "--output-format", "sarif"],
                 ["m.py", "--output-format", "gitlab"]):
        cmd = [sys.executable, "-c", code, *args]
        subprocess.run(cmd, cwd=project, capture_output=True, text=True)  # fills the cache
        warm = subprocess.run(cmd, cwd=project, capture_output=True, text=True)
        assert warm.stdout.rstrip().splitlines()[-1] == f"LIBCST False {0 if '-q' in args else 1}", \
            warm.stdout + warm.stderr


def test_unwritable_baseline_is_one_line(project: Path) -> None:
    result = _run("m.py", "--write-baseline", "m.py/b.json")
    assert result.exit_code == 2
    assert result.stderr.startswith("error: m.py/b.json: cannot be written (")
    assert len(result.stderr.splitlines()) == 1


def test_a_file_that_does_not_parse_keeps_its_entries_when_jax001_is_not_selected(project: Path) -> None:
    assert _run("m.py", "--select", "JAX101", "--write-baseline", "b.json").stderr == (
        "Wrote 2 findings to the baseline b.json.\n")
    (project / "m.py").write_text(SRC + "def broken(:\n")
    pruned = _run("m.py", "--select", "JAX101", "--baseline", "b.json", "--write-baseline", "b.json")
    assert pruned.stderr == "Wrote 2 findings to the baseline b.json; kept 2 of files not checked this time.\n"
