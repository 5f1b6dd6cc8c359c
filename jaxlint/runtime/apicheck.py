"""The removed-API oracle: does the name a finding reports exist in the installed JAX?

A removed-API finding (JAX901, and JAX905's ``from jax.config import config``) says
that a name the code spells is gone.  The installed JAX answers that without running
the user's code: the import (``from jax.experimental import optimizers``) or the
dotted name (``jax.tree_flatten``, through the import that bound ``jax``) is
evaluated alone, in a fresh namespace, the way Python evaluates it.  It raises:
confirmed, wherever the line is (never reached by a --run, inside a module that fails
to import, in a function no input reaches).  It works: not reproduced with this JAX.

Only imports and chains of names are evaluated (nothing of the user's code runs), and
only for the packages of the JAX ecosystem (a user module of the same name is never
imported).  A package that is not installed gives no verdict (an environment problem,
not evidence).  Worker side: imports JAX.
"""

from __future__ import annotations

import ast
import re
from typing import Optional

from jaxlint.runtime.verdicts import Verdict, confirmed, first_line, not_reproduced

API_RULES = ("JAX901", "JAX905")  # findings that claim a name is gone
# the packages whose names the API-history table holds
PACKAGES = {"jax", "jaxlib", "flax", "optax", "haiku", "equinox", "chex", "orbax"}


def _alias_text(alias: ast.alias) -> str:
    return alias.name + (f" as {alias.asname}" if alias.asname else "")


def _bindings(tree: ast.AST, before: int) -> dict[str, tuple[int, str]]:
    """Local name -> (line, the one-name import statement that binds it), the last one
    at or above ``before`` winning (else the first below)."""
    found: dict[str, tuple[int, str]] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for a in node.names:
                local = a.asname or a.name.split(".")[0]
                stmt = f"import {_alias_text(a)}"
                _keep(found, local, node.lineno, stmt, before)
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            for a in node.names:
                if a.name != "*":
                    _keep(found, a.asname or a.name, node.lineno,
                          f"from {node.module} import {_alias_text(a)}", before)
    return found


def _keep(found: dict, local: str, line: int, stmt: str, before: int) -> None:
    old = found.get(local)
    if old is None or (line <= before and (old[0] > before or line > old[0])):
        found[local] = (line, stmt)


def _chain(node: ast.AST) -> Optional[list[str]]:
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if not isinstance(node, ast.Name):
        return None
    return [node.id, *reversed(parts)]


def statement_for(source: str, line: int, col: int, end_line: int, end_col: int) -> Optional[str]:
    """The Python that evaluates the name the finding spans (1-based columns), alone:
    an import, or the import that binds a chain's head followed by the chain."""
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError):
        return None
    rows = re.split(r"\r\n|\r|\n", source)  # lines as CPython counts them

    def byte_col(row: int, column: int) -> int:  # CPython's col_offset counts UTF-8 bytes
        text = rows[row - 1] if 0 < row <= len(rows) else ""
        return len(text[:max(column - 1, 0)].encode("utf-8", "surrogatepass"))

    start = (line, byte_col(line, col))
    end = (end_line, byte_col(end_line, end_col))
    for node in ast.walk(tree):
        if isinstance(node, (ast.Import, ast.ImportFrom)) and node.lineno <= line <= (
                node.end_lineno or node.lineno):
            if isinstance(node, ast.ImportFrom) and (not node.module or node.level):
                continue
            for a in node.names:
                if (a.lineno, a.col_offset) <= start and end <= (a.end_lineno, a.end_col_offset):
                    if isinstance(node, ast.Import):
                        return f"import {_alias_text(a)}"
                    return f"from {node.module} import {_alias_text(a)}"
            if isinstance(node, ast.ImportFrom):
                first = node.names[0]
                if start < (first.lineno, first.col_offset):  # the module's name
                    return f"import {node.module}"
    best = None
    for node in ast.walk(tree):
        if isinstance(node, (ast.Attribute, ast.Name)) and node.end_lineno is not None and \
                (node.lineno, node.col_offset) == start and \
                (node.end_lineno, node.end_col_offset) == end:
            best = node
            break
    parts = _chain(best) if best is not None else None
    if not parts:
        return None
    bound = _bindings(tree, line).get(parts[0])
    if bound is None:
        return None
    return f"{bound[1]}\n_ = {'.'.join(parts)}"


def _top(statement: str) -> str:
    words = statement.split()
    return words[1].split(".")[0] if len(words) > 1 else ""


def check_api(source: str, finding: dict) -> Optional[Verdict]:
    """The verdict of the installed JAX on the name the finding spans, or None when the
    finding spans no importable name of the ecosystem (or its package is missing)."""
    if finding.get("code") not in API_RULES:
        return None
    stmt = statement_for(source, int(finding["line"]), int(finding["col"]),
                         int(finding.get("end_line") or finding["line"]),
                         int(finding.get("end_col") or finding["col"]))
    if stmt is None or _top(stmt) not in PACKAGES:
        return None
    import jax

    shown = stmt.replace("\n", "; ")
    head, _, chain = stmt.partition("\n_ = ")
    try:
        scope: dict = {}
        exec(compile(head, "<jaxlint api check>", "exec"), scope)  # noqa: S102 - an import
        if chain:
            _walk(scope, chain.split("."))
    except ModuleNotFoundError as exc:
        if exc.name == _top(stmt):
            return None  # the package itself is missing: an environment problem
        return _gone(shown, exc, jax.__version__)
    except (ImportError, AttributeError) as exc:
        return _gone(shown, exc, jax.__version__)
    except Exception:  # noqa: BLE001 - a package failing at import says nothing of the name
        return None
    return not_reproduced(f"`{shown}` works with the installed JAX {jax.__version__}",
                          oracle="the installed JAX", statement=stmt)


def _walk(scope: dict, parts: list[str]) -> None:
    """Look the chain up from the name the import bound.  A submodule that the process
    has not imported yet is not an attribute of its package, but the name exists: it is
    imported before it is said to be missing."""
    import importlib
    import types

    obj = scope[parts[0]]
    for attr in parts[1:]:
        try:
            obj = getattr(obj, attr)
        except AttributeError:
            if not isinstance(obj, types.ModuleType):
                raise
            try:
                obj = importlib.import_module(f"{obj.__name__}.{attr}")
            except ModuleNotFoundError:
                raise AttributeError(f"module {obj.__name__!r} has no attribute {attr!r}") \
                    from None


def _gone(shown: str, exc: BaseException, version: str) -> Verdict:
    name = exc.__class__.__name__
    return confirmed(f"`{shown}` raises {name} with the installed JAX {version}: "
                     f"{first_line(exc)}", exception=name, message=first_line(exc),
                     oracle="the installed JAX", statement=shown)
