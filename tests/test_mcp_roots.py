"""The MCP tools stay inside the workspace roots: reads and writes through a
descriptor of the root (a folder swapped for a link while `fix` runs cannot
send a write outside), the cache inside the roots, and one sentence for every
bad argument.  The tools are plain functions (jaxlint.mcp_server.tools imports
no MCP code), called here in this process; test_mcp.py drives the server
through the SDK's client."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from jaxlint.mcp_server import tools
from jaxlint.mcp_server.tools import ToolInputError, Workspace

SRC = "import jax\n\n\ndef g(f, z):\n    return jax.tree_map(f, z)\n"
FIXED = SRC.replace("jax.tree_map(", "jax.tree.map(")
OUTSIDE = "it links outside the workspace roots"
MOVED = "a folder on its path was moved or replaced by a link while it was read or written"

# renames root/pkg away and puts a link to the outside folder in its place, and back, until told to stop
SWAPPER = r"""
import os, sys, time
root, outside, stop = sys.argv[1:4]
pkg, moved = os.path.join(root, "pkg"), os.path.join(root, ".pkg_moved")
while not os.path.exists(stop):
    os.rename(pkg, moved)
    os.symlink(outside, pkg)
    time.sleep(0.001)
    os.unlink(pkg)
    os.rename(moved, pkg)
    time.sleep(0.005)
"""


def _call(name: str, args, root: Path) -> dict:
    return tools.call(name, args, Workspace.of([root]))


def _error(name: str, args, root: Path) -> str:
    with pytest.raises(ToolInputError) as exc:
        _call(name, args, root)
    return str(exc.value)


def _tree(root: Path) -> dict[str, str]:
    return {str(p.relative_to(root)): p.read_text() for p in sorted(root.rglob("*")) if p.is_file()}


def test_a_folder_swapped_for_a_link_while_fix_writes_sends_nothing_outside(tmp_path: Path) -> None:
    """A real race: another process swaps root/pkg for a link to an outside copy
    again and again while `fix write=true` runs over 100 files.  On main 4 of 5
    such runs rewrote 3-6 outside files (this test, with 3 runs, failed there)."""
    n = 100
    for run in range(3):
        base = tmp_path / f"run{run}"
        root, outside = base / "root", base / "outside" / "pkg"
        (root / "pkg").mkdir(parents=True)
        outside.mkdir(parents=True)
        for i in range(n):
            (root / "pkg" / f"m{i}.py").write_text(SRC)
            (outside / f"m{i}.py").write_text(SRC)
        stop = base / "stop"
        swapper = subprocess.Popen([sys.executable, "-c", SWAPPER, str(root), str(outside), str(stop)])
        try:
            time.sleep(0.05)
            try:
                result = _call("fix", {"write": True}, root)
            except ToolInputError as exc:  # the root's listing met the link mid-swap
                result = {"files": [], "errors": [str(exc)]}
        finally:
            stop.touch()
            swapper.wait(timeout=30)
        assert _tree(base / "outside") == {f"pkg/m{i}.py": SRC for i in range(n)}, result["errors"]
        inside = _tree(root / "pkg")
        assert set(inside) == {f"m{i}.py" for i in range(n)}  # no temporary file left behind
        # (listed as pkg/ or .pkg_moved/, the name the folder had when it was found)
        written = {Path(f["path"]).name for f in result["files"] if f["written"]}
        assert {k for k, v in inside.items() if v == FIXED} == written
        assert all(v in (SRC, FIXED) for v in inside.values())


def test_a_folder_swapped_between_the_read_and_the_write_is_not_written(tmp_path: Path, monkeypatch) -> None:
    """The same race made certain: the folder is swapped while the fix is computed."""
    import jaxlint.fix.fixer as fixer

    root, outside = tmp_path / "root", tmp_path / "outside"
    (root / "pkg").mkdir(parents=True)
    outside.mkdir()
    (root / "pkg" / "a.py").write_text(SRC)
    (outside / "a.py").write_text(SRC)
    real_fix_text = fixer.fix_text

    def swap_then_fix(*args, **kwargs):
        if not (root / "pkg").is_symlink():
            (root / "pkg").rename(root / "moved")
            (root / "pkg").symlink_to(outside)
        return real_fix_text(*args, **kwargs)

    monkeypatch.setattr(fixer, "fix_text", swap_then_fix)
    result = _call("fix", {"paths": ["pkg/a.py"], "write": True}, root)
    assert (outside / "a.py").read_text() == SRC
    assert (root / "moved" / "a.py").read_text() == SRC
    assert result["errors"] == [f"pkg/a.py: not written ({OUTSIDE})"]
    assert result["written"] is False and result["files"] == []
    assert [(f["code"], f["path"], f["line"]) for f in result["remaining"]] == [("JAX901", "pkg/a.py", 5)]


def test_a_file_changed_on_disk_while_it_is_fixed_is_not_written(tmp_path: Path, monkeypatch) -> None:
    import jaxlint.fix.fixer as fixer

    root = tmp_path / "root"
    root.mkdir()
    target = root / "a.py"
    target.write_text(SRC)
    real_fix_text = fixer.fix_text

    def edit_then_fix(*args, **kwargs):
        target.write_text(SRC + "# edited meanwhile\n")
        return real_fix_text(*args, **kwargs)

    monkeypatch.setattr(fixer, "fix_text", edit_then_fix)
    result = _call("fix", {"paths": ["a.py"], "write": True}, root)
    assert result["errors"] == ["a.py: not written (it changed on disk while it was being fixed)"]
    assert target.read_text() == SRC + "# edited meanwhile\n"


def test_links_inside_the_roots_are_followed_and_links_outside_refused(tmp_path: Path) -> None:
    root, outside = tmp_path / "root", tmp_path / "outside"
    (root / "real").mkdir(parents=True)
    outside.mkdir()
    (outside / "out.py").write_text(SRC)
    (root / "real" / "a.py").write_text(SRC)
    (root / "real" / "mode.py").write_text(SRC)
    os.chmod(root / "real" / "mode.py", 0o640)
    (root / "linked.py").symlink_to(root / "real" / "a.py")
    (root / "escape.py").symlink_to(outside / "out.py")
    (root / "escape_dir").symlink_to(outside, target_is_directory=True)

    checked = _call("check", {}, root)
    assert checked["errors"] == [f"escape.py: refused ({OUTSIDE})"]
    assert sorted(f["path"] for f in checked["findings"]) == ["linked.py", "real/a.py", "real/mode.py"]

    assert _error("fix", {"paths": ["escape.py"], "write": True}, root) == (
        f"path 'escape.py' is outside the workspace roots ({root}), so it is refused.")
    fixed = _call("fix", {"paths": ["linked.py", "real/mode.py"], "write": True}, root)
    assert fixed["errors"] == []
    assert sorted(f["path"] for f in fixed["files"] if f["written"]) == ["linked.py", "real/mode.py"]
    assert (root / "linked.py").is_symlink()  # the link is kept, the file it names is fixed
    assert (root / "real" / "a.py").read_text() == FIXED
    assert (root / "real" / "mode.py").read_text() == FIXED
    assert oct((root / "real" / "mode.py").stat().st_mode & 0o777) == "0o640"  # its mode kept
    assert (outside / "out.py").read_text() == SRC
    assert _error("fix", {"paths": ["escape_dir/out.py"], "write": True}, root) == (
        f"path 'escape_dir/out.py' is outside the workspace roots ({root}), so it is refused.")
    assert (outside / "out.py").read_text() == SRC


@pytest.mark.parametrize("config", [
    None,  # the pyproject.toml sits above the root: the CLI's cache would be there
    'cache-dir = "../elsewhere"\n',
])
def test_the_cache_stays_inside_the_roots(tmp_path: Path, config) -> None:
    parent = tmp_path / "parent"
    root = parent / "root"
    root.mkdir(parents=True)
    (parent / "pyproject.toml").write_text("[tool.jaxlint]\n")
    if config is not None:
        (root / "pyproject.toml").write_text("[tool.jaxlint]\n" + config)
    (root / "a.py").write_text(SRC)
    assert [f["code"] for f in _call("check", {}, root)["findings"]] == ["JAX901"]
    assert _call("fix", {}, root)["fixed"] == 1
    assert sorted(p.name for p in parent.iterdir()) == ["pyproject.toml", "root"]
    assert not (tmp_path / "elsewhere").exists()
    # the first root's own cache, as a `jaxlint check` with no configuration file makes it
    assert (root / ".jaxlint_cache" / "CACHEDIR.TAG").is_file()
    assert (root / "a.py").read_text() == SRC


def test_a_cache_that_links_outside_is_not_used(tmp_path: Path) -> None:
    root, outside = tmp_path / "root", tmp_path / "outside"
    root.mkdir()
    outside.mkdir()
    (root / ".jaxlint_cache").symlink_to(outside, target_is_directory=True)
    (root / "a.py").write_text(SRC)
    assert [f["code"] for f in _call("check", {}, root)["findings"]] == ["JAX901"]
    assert list(outside.iterdir()) == []


def test_the_confirm_companion_keeps_its_cache_inside_the_roots(tmp_path: Path) -> None:
    parent = tmp_path / "parent"
    root = parent / "root"
    root.mkdir(parents=True)
    (parent / "pyproject.toml").write_text("[tool.jaxlint]\n")
    (root / "a.py").write_text("x = 1\n")
    assert _call("confirm", {"paths": ["a.py"]}, root)["findings"] == []
    assert sorted(p.name for p in parent.iterdir()) == ["pyproject.toml", "root"]


LONG = "a" * 100_000


@pytest.mark.parametrize("name, args, expected", [
    ("check", {"paths": [LONG]}, "path 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa'... (100000 characters) is too "
     "long (a path has at most 4096 bytes, and each name in it at most 255)."),
    ("fix", {"paths": ["pkg/" + "b" * 300], "write": True}, "path 'pkg/bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb'... "
     "(304 characters) is too long (a path has at most 4096 bytes, and each name in it at most 255)."),
    ("confirm", {"paths": [LONG]}, "path 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa'... (100000 characters) is too "
     "long (a path has at most 4096 bytes, and each name in it at most 255)."),
    ("check", {"source": "x = 1\n", "filename": LONG}, "filename 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa'... "
     "(100000 characters) is too long (a path has at most 4096 bytes, and each name in it at most 255)."),
    ("check", {"paths": [""]}, "path '' is empty; name a file or directory."),
    ("fix", {"paths": ["  "]}, "path '  ' is empty; name a file or directory."),
    ("check", {"paths": ["a\0b.py"]}, "path 'a\\x00b.py' is not a valid path (it contains a NUL character)."),
    ("check", {"source": "x\n", "filename": "a\0.py"},
     "filename 'a\\x00.py' is not a valid path (it contains a NUL character)."),
    ("check", {"paths": ["\ud800.py"]}, "path '\\ud800.py' is not a valid path (it cannot be encoded)."),
    ("check", {"paths": ["a.py/x"]}, "path 'a.py/x' cannot be read (Not a directory)."),
    ("check", {"paths": [".."]}, "path '..' is outside the workspace roots ({root}), so it is refused."),
    ("check", {"paths": ["sub/../../x.py"]},
     "path 'sub/../../x.py' is outside the workspace roots ({root}), so it is refused."),
    ("fix", {"paths": ["/etc/hostname"], "write": True},
     "path '/etc/hostname' is outside the workspace roots ({root}), so it is refused."),
    ("check", {"paths": [3]}, "'paths' must be a list of strings."),
    ("check", {"paths": "a.py"}, "'paths' must be a list of strings."),
    ("check", {"source": 3}, "'source' must be a string."),
    ("fix", {"paths": ["a.py"], "unsafe": 1}, "'unsafe' must be true or false."),
    ("check", {"select": [LONG]}, "Unknown rule selector 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa'... "
     "(100000 characters) in 'select' (the rules tool lists every code)."),
    ("check", {"select": ["JAX\0"]}, "Unknown rule selector 'JAX\\x00' in 'select' (the rules tool lists every code)."),
    ("check", {LONG: 1}, "check has no argument 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa'... (100000 characters); "
     "it takes paths, source, filename, select."),
    (LONG, {}, "Unknown tool 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa'... (100000 characters); the tools are "
     "check, fix, confirm, rules, rule."),
    ("rule", {"code": LONG}, "Unknown rule 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa'... (100000 characters) "
     "(the rules tool lists every code)."),
    ("rule", {"code": " "}, "'code' must not be empty; give a rule code such as JAX201, or a rule name."),
    ("rule", {"code": 201}, "'code' must be a string."),
    ("confirm", {"paths": ["a.py"], "timeout": float("inf")}, "'timeout' must be a number of seconds above 0."),
    ("confirm", {"paths": ["a.py"], "timeout": float("nan")}, "'timeout' must be a number of seconds above 0."),
    ("confirm", {"paths": ["a.py"], "run": ["python\0 x.py"]}, "'run' command 'python\\x00 x.py' contains a NUL "
     "character."),
    ("confirm", {"paths": ["a.py"], "run": ["x" * 200_000]}, "'run' command 'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx'"
     "... (200000 characters) is too long (at most 100000 bytes)."),
    ("check", [], "The arguments of check must be a JSON object."),
])
def test_every_bad_argument_is_one_sentence(tmp_path: Path, name, args, expected) -> None:
    root = tmp_path / "root"
    root.mkdir()
    (root / "a.py").write_text(SRC)
    assert _error(name, args, root) == expected.format(root=root)


def test_fix_write_refuses_a_hard_linked_file(tmp_path: Path) -> None:
    """`fix write=true` leaves a file with other hard links alone (its other names may
    lie outside the roots: rewriting the shared inode would change them too) and says
    why; the CLI's `--fix` rewrites it in place."""
    root = tmp_path / "root"
    root.mkdir()
    outside = tmp_path / "outside"
    outside.mkdir()
    a, b = root / "a.py", outside / "b.py"
    a.write_text(SRC)
    os.link(a, b)
    result = _call("fix", {"paths": ["a.py"], "write": True}, root)
    assert result["written"] is False and result["fixed"] == 0
    assert result["errors"] == [
        "a.py: not written (it has 2 hard links, which may lie outside the workspace roots "
        "(fix it with `jaxlint --fix`, which rewrites it in place))"
    ]
    assert a.read_text() == b.read_text() == SRC


def test_a_link_removed_while_a_path_is_resolved_is_no_traceback(tmp_path: Path, monkeypatch) -> None:
    """The race the swapping test met once in CI, made certain: os.path.realpath
    (even when not strict) raises FileNotFoundError when the link it has just
    seen is gone before it reads it.  Each file's first resolve raises so here;
    the fix goes on and writes every file, inside the root."""
    from jaxlint.paths import resolved

    root = tmp_path / "root"
    (root / "pkg").mkdir(parents=True)
    for i in range(3):
        (root / "pkg" / f"m{i}.py").write_text(SRC)
    real_resolve, raised = Path.resolve, set()

    def racing_resolve(self, strict=False):
        if self.suffix == ".py" and self.name not in raised:
            raised.add(self.name)
            raise FileNotFoundError(2, "No such file or directory", str(self.parent))
        return real_resolve(self, strict)

    monkeypatch.setattr(Path, "resolve", racing_resolve)
    result = _call("fix", {"write": True}, root)
    assert result["errors"] == []
    assert sorted(Path(f["path"]).name for f in result["files"] if f["written"]) == ["m0.py", "m1.py", "m2.py"]
    assert {p.name: p.read_text() for p in (root / "pkg").iterdir()} == {f"m{i}.py": FIXED for i in range(3)}
    # a path that never resolves is answered as written, made absolute
    monkeypatch.setattr(Path, "resolve", lambda self, strict=False: (_ for _ in ()).throw(FileNotFoundError(2, "gone")))
    assert resolved("pkg/x.py") == Path.cwd() / "pkg" / "x.py"
