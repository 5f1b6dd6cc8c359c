"""The architecture contract: layers one way, no import circle, rules on the public API.

The layers and forbidden imports are declared in pyproject.toml ([tool.importlinter])
and checked with import-linter; the circle check uses its import graph (grimp).
"""

from __future__ import annotations

import ast
import re
import subprocess
import sys
from pathlib import Path

import grimp
import pytest

ROOT = Path(__file__).resolve().parent.parent
RULES = ROOT / "jaxlint" / "rules"


def test_import_contracts_kept():
    exe = Path(sys.executable).with_name("lint-imports")
    proc = subprocess.run(
        [str(exe), "--no-cache", "--no-logo"], cwd=ROOT, capture_output=True, text=True, timeout=120
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "2 kept, 0 broken" in proc.stdout


@pytest.fixture(scope="module")
def graph():
    return grimp.build_graph("jaxlint", cache_dir=None)


def test_no_import_circle(graph):
    circles = []
    for importer in sorted(graph.modules):
        for imported in sorted(graph.find_modules_directly_imported_by(importer)):
            if imported == importer or not imported.startswith("jaxlint"):
                continue
            back = graph.find_shortest_chain(importer=imported, imported=importer)
            if back:
                circles.append(f"{importer} -> {' -> '.join(back)}")
    assert circles == []


def test_model_knows_no_rule_engine_or_fixer(graph):
    for module in sorted(m for m in graph.modules if m.startswith("jaxlint.model")):
        imported = graph.find_modules_directly_imported_by(module)
        bad = sorted(m for m in imported if m.startswith(("jaxlint.rules", "jaxlint.engine", "jaxlint.fix")))
        assert bad == [], module


def test_rules_use_only_the_public_context():
    """Rules ask ``RuleContext`` (its public names), never the interpreter's state."""
    private = re.compile(r"\bctx\._\w+")
    offenders = []
    for path in sorted(RULES.rglob("*.py")):
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if private.search(line):
                offenders.append(f"{path.relative_to(ROOT)}:{n}: {line.strip()}")
    assert offenders == []


def test_rule_context_is_closed():
    from jaxlint.engine.context import RuleContext

    assert not hasattr(RuleContext, "__dict__") or "__slots__" in RuleContext.__dict__
    assert "env" not in RuleContext.__slots__ and "_lookup" not in dir(RuleContext)


def _private(name: str) -> bool:
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def _is_module(dotted: str) -> bool:
    path = ROOT.joinpath(*dotted.split("."))
    return path.with_suffix(".py").is_file() or (path / "__init__.py").is_file()


def private_imports(rel: Path, source: str) -> list[str]:
    """Where the module at ``path`` reaches a private name (``_x``) of another jaxlint
    module: ``from jaxlint.m import _x`` (relative imports too), or ``m._x`` on a
    jaxlint module it imported (``import jaxlint.m as m``, ``from jaxlint import m``,
    ``jaxlint.m._x``).  ``rel``: its path from the repository root."""
    import ast

    parts = list(rel.with_suffix("").parts)
    is_package = parts[-1] == "__init__"
    if is_package:
        parts = parts[:-1]
    me = ".".join(parts)
    package = parts if is_package else parts[:-1]
    tree = ast.parse(source)
    modules: dict[str, str] = {}  # local name -> the jaxlint module it is bound to
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                up = package[: len(package) - node.level + 1]
                base = ".".join(up + ([node.module] if node.module else []))
            if base != "jaxlint" and not base.startswith("jaxlint."):
                continue
            for alias in node.names:
                if _private(alias.name) and base != me:
                    found.append(f"{rel}:{node.lineno}: from {base} import {alias.name}")
                if _is_module(f"{base}.{alias.name}"):
                    modules[alias.asname or alias.name] = f"{base}.{alias.name}"
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name == "jaxlint" or alias.name.startswith("jaxlint."):
                    if alias.asname:
                        modules[alias.asname] = alias.name
                    else:
                        modules["jaxlint"] = "jaxlint"
    for node in ast.walk(tree):
        if not isinstance(node, ast.Attribute) or not _private(node.attr):
            continue
        chain = []
        base = node.value
        while isinstance(base, ast.Attribute):
            chain.append(base.attr)
            base = base.value
        if not isinstance(base, ast.Name) or base.id not in modules:
            continue
        owner = ".".join([modules[base.id], *reversed(chain)])
        if _is_module(owner) and owner != me:
            found.append(f"{rel}:{node.lineno}: {owner}.{node.attr}")
    return found


def test_no_private_name_is_reached_from_another_module():
    """A module's ``_names`` are its own: another module uses its public API (the
    language server once called ``linter._parse_and_analyze`` and so skipped the
    guard that keeps libcst's parser from crashing the process)."""
    offenders = []
    for path in sorted((ROOT / "jaxlint").rglob("*.py")):
        offenders.extend(private_imports(path.relative_to(ROOT), path.read_text(encoding="utf-8")))
    assert offenders == []


def test_the_private_import_check_sees_every_form():
    where = "jaxlint/server/_sample_for_the_test.py"
    found = private_imports(Path(where), (
        "import jaxlint.lint.linter as L\nimport jaxlint\nfrom jaxlint.parse import guard\n"
        "from jaxlint.lint.linter import _fill_lines, lint_source\nfrom . import core\n"
        "from .incremental import _split_lines\nfrom jaxlint.server import _private_thing\n"
        "L._parse_and_analyze\njaxlint.lint.linter._fill_lines\nguard._measure\ncore._RELATED_RE\n"
        "lint_source._not_a_module\nL.__name__\nL.lint_source\n"))
    assert found == [
        f"{where}:4: from jaxlint.lint.linter import _fill_lines",
        f"{where}:6: from jaxlint.server.incremental import _split_lines",
        f"{where}:7: from jaxlint.server import _private_thing",
        f"{where}:8: jaxlint.lint.linter._parse_and_analyze",
        f"{where}:9: jaxlint.lint.linter._fill_lines",
        f"{where}:10: jaxlint.parse.guard._measure",
        f"{where}:11: jaxlint.server.core._RELATED_RE",
    ]


def test_only_the_compat_module_reaches_into_libcsts_private_modules():
    offenders = []
    for path in sorted((ROOT / "jaxlint").rglob("*.py")):
        if path.name == "libcst_compat.py":
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = ([a.name for a in node.names] if isinstance(node, ast.Import)
                     else [node.module or ""] if isinstance(node, ast.ImportFrom) else [])
            offenders += [f"{path.relative_to(ROOT)}:{node.lineno}: {n}" for n in names
                          if n.startswith("libcst.") and any(p.startswith("_") for p in n.split("."))]
    assert offenders == []
