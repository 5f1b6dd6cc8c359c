"""Round 20, valM: the origin matrix (tests/matrix_valM.py) linted in one run.

Every cell (a sink family crossed with where the value comes from) is a project in its
own folder with a ``pyproject.toml``; the parent folder is linted once, so each cell is
its own project.  An INVALID cell must give exactly its finding (code, path, line,
column, message); its VALID twin must stay silent.  ``HOLES`` lists the cells the model
does not find yet (each one is a value it cannot show: unknown never reports); a cell
found that is listed there fails too, so the list shrinks as the model grows."""

import json
from pathlib import Path

from click.testing import CliRunner

from jaxlint.cli import cli
from matrix_valM import EXTRA, cells, expected

# cells the model does not find: value origins it cannot show yet
# (round 20 start: 74 of 126 found; after valM's mechanisms: 117)
HOLES = frozenset({
    # a NamedTuple built by a helper of another module: its fields' kinds do not travel
    "inplace-namedtuple", "nptable-namedtuple", "oob-namedtuple", "pylist-namedtuple", "tracer-namedtuple",
    # the shape of an array a caller in another module passes
    "oob-param_other",
    # a list held in a dict, or returned in a tuple by another module
    "pylist-dict_item", "pylist-dict_return", "pylist-tuple_return",
})


def _lint(root: Path, monkeypatch, which: str) -> dict[str, list[tuple]]:
    all_cells = list(cells())
    for cell in all_cells:
        files = cell.files if which == "bug" else cell.twin
        for name, text in files.items():
            p = root / cell.id / name
            p.parent.mkdir(parents=True, exist_ok=True)
            p.write_text(text)
        (root / cell.id / "pyproject.toml").write_text("")
    monkeypatch.chdir(root)
    result = CliRunner().invoke(cli, ["check", ".", "--no-cache", "--output-format", "json", "-j", "1"])
    assert result.exit_code in (0, 1), result.output
    out: dict[str, list[tuple]] = {c.id: [] for c in all_cells}
    for f in json.loads(result.stdout):
        cid, _, path = f["filename"].partition("/")
        out[cid].append((f["code"], path, f["location"]["row"], f["location"]["column"], f["message"]))
    return out


def test_origin_matrix(tmp_path, monkeypatch):
    bugs = _lint(tmp_path / "bug", monkeypatch, "bug")
    twins = _lint(tmp_path / "twin", monkeypatch, "twin")
    wrong = {}
    for cell in cells():
        want = sorted(([expected(cell)] if cell.id not in HOLES else []) + EXTRA.get(cell.id, []))
        if sorted(bugs[cell.id]) != want:
            wrong[cell.id] = (bugs[cell.id], want)
        if twins[cell.id]:
            wrong[cell.id + " (twin)"] = twins[cell.id]
    assert wrong == {}
