"""The architecture contract: layers one way, no import circle, rules on the public API.

The layers and forbidden imports are declared in pyproject.toml ([tool.importlinter])
and checked with import-linter; the circle check uses its import graph (grimp).
"""

from __future__ import annotations

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
