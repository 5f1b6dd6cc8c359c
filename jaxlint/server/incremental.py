"""Re-parse only the top-level statements an edit touched.

Parsing with libcst is most of the cost of linting a file (see
docs/performance.md), and an edit in an editor usually changes one function.
``IncrementalParser`` splits the buffer into its top-level statements (their
exact lines come from Python's own parser, ``ast``, which is several times
faster than libcst), parses each statement's text with libcst once, and builds
the module from the statements it already has for every text it has seen
before.  The module it returns prints back to exactly the buffer, and the
linter runs on it as on a fresh parse; ``tests/test_server_incremental.py``
checks the findings are the same as ``lint_source``'s.

Whenever anything is unusual (Python cannot parse the buffer, libcst cannot
parse a statement on its own), it returns None and the caller lints the whole
buffer the ordinary way, so a syntax error still gets its JAX001.
"""

from __future__ import annotations

import ast
import gc
from typing import Optional

import libcst as cst

from jaxlint.findings import FileResult
from jaxlint.lines import LINE_BREAK, split_lines
from jaxlint.settings import LintSettings

_NL_RE = LINE_BREAK
_BLOCK_TYPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.If, ast.For,
                ast.AsyncFor, ast.While, ast.With, ast.AsyncWith, ast.Try)
if hasattr(ast, "TryStar"):
    _BLOCK_TYPES = _BLOCK_TYPES + (ast.TryStar,)


def _split_lines(text: str) -> list[str]:
    return split_lines(text, keepends=True)


def _starts_line(lines: list[str], node: ast.AST) -> Optional[str]:
    """The indentation of ``node``'s line when ``node`` is the first thing on it."""
    line = lines[node.lineno - 1]  # type: ignore[attr-defined]
    prefix = line.encode("utf-8", "surrogatepass")[: node.col_offset]  # type: ignore[attr-defined]
    if prefix.strip(b" \t\f"):
        return None
    return prefix.decode("utf-8", "surrogatepass")


def _first_indent(tree: ast.Module, lines: list[str]) -> str:
    """The file's first INDENT, as libcst detects ``Module.default_indent``."""
    for stmt in tree.body:
        first: Optional[ast.AST] = None
        if isinstance(stmt, _BLOCK_TYPES):
            first = stmt.body[0]  # type: ignore[attr-defined]
        elif hasattr(ast, "Match") and isinstance(stmt, ast.Match) and stmt.cases:
            first = stmt.cases[0].pattern
        if first is None:
            continue
        indent = _starts_line(lines, first)
        if indent:
            return indent
    return "    "


class IncrementalParser:
    """Parses successive versions of one buffer, reusing unchanged statements."""

    def __init__(self) -> None:
        self._chunks: dict[tuple, tuple[tuple[cst.BaseStatement, ...], tuple, Optional[cst.Module]]] = {}
        self._joined: dict[tuple, tuple] = {}
        self.positions = None  # a jaxlint.positions.StatementCache, made on first use
        self.tree: Optional[ast.Module] = None  # Python's tree of the last text parsed
        self.reused = 0  # statements taken from the previous versions (for tests)
        self.parsed = 0  # statements parsed anew

    def parse(self, text: str) -> Optional[cst.Module]:
        try:
            return self._parse(text)
        except Exception:  # anything unusual: the caller parses the whole buffer
            return None

    def _parse(self, text: str) -> Optional[cst.Module]:
        self.tree = None
        tree = ast.parse(text)
        self.tree = tree
        if not tree.body:
            return None
        lines = _split_lines(text)
        # the first line of each top-level statement (its decorators included);
        # statements sharing a line (``a = 1; b = 2``) stay together
        starts: list[int] = []
        last_end = 0
        for stmt in tree.body:
            first = min([stmt.lineno] + [d.lineno for d in getattr(stmt, "decorator_list", [])])
            if not starts or first > last_end:
                starts.append(first)
            last_end = max(last_end, stmt.end_lineno or stmt.lineno)
        if len(starts) < 2:
            return None
        m = _NL_RE.search(text)
        newline = m.group(0) if m else "\n"
        indent = _first_indent(tree, lines)
        prefix = f"if 1:{newline}{indent}pass{newline}"
        bounds = [1] + starts[1:] + [len(lines) + 1]  # chunk 0 starts at line 1 (header)
        chunks: dict[tuple, tuple] = {}
        body: list[cst.BaseStatement] = []
        pending: tuple = ()
        joins: dict[tuple, tuple] = {}
        header: tuple = ()
        first_module: Optional[cst.Module] = None
        last_module: Optional[cst.Module] = None
        for i in range(len(bounds) - 1):
            chunk = "".join(lines[bounds[i] - 1: bounds[i + 1] - 1])
            key = (i == 0, chunk, indent, newline)
            got = self._chunks.get(key) or chunks.get(key)
            if got is None:
                if i == 0:
                    # the module's header, encoding and indentation come from here
                    module = cst.parse_module(chunk)
                    stmts = tuple(module.body)
                else:
                    # a leading block gives the chunk the file's indentation, so
                    # its blocks print back with the indentation they have
                    module = cst.parse_module(prefix + chunk)
                    if module.default_indent != indent or module.default_newline != newline:
                        return None
                    stmts = tuple(module.body[1:])
                    if module.header:
                        return None
                if not stmts:
                    return None
                got = (stmts, tuple(module.footer), module)
                self.parsed += len(stmts)
            else:
                self.reused += len(got[0])
            chunks[key] = got
            stmts, footer, module = got
            if i == 0:
                first_module = module
                header = tuple(module.header)
                body.extend(stmts)
            else:
                if pending:
                    # the lines between two statements lead the second (as in a whole
                    # parse); the joined node is kept so that it too is reused
                    join_key = (key, id(pending))
                    joined = self._joined.get(join_key)
                    if joined is None or joined[0] is not pending:
                        joined = (pending, stmts[0].with_changes(
                            leading_lines=(*pending, *stmts[0].leading_lines)))
                    joins[join_key] = joined
                    stmts = (joined[1],) + stmts[1:]
                body.extend(stmts)
            pending = footer
            last_module = module
        self._chunks = chunks  # keep only what the current version uses
        self._joined = joins
        assert first_module is not None and last_module is not None
        if first_module.default_indent != indent and any(
                isinstance(getattr(s, "body", None), cst.IndentedBlock) for s in first_module.body):
            return None
        return cst.Module(
            body=body,
            header=header,
            footer=pending,
            encoding=first_module.encoding,
            default_indent=indent,
            default_newline=newline,
            has_trailing_newline=last_module.has_trailing_newline,
        )


def lint_incremental(parser: IncrementalParser, text: str, path: str,
                     settings: LintSettings) -> FileResult:
    """``lint_source(text, path, settings)``, re-parsing only what changed (in
    project mode too: the file's summary and what it tells its project come
    from the linter's own code, on the same trees)."""
    from jaxlint.linter import _fill_lines, _parse_and_analyze, lint_source, mentions_jax

    if ("# jaxlint: skip-file" in text or not mentions_jax(text.encode("utf-8", "surrogatepass"))
            or not (settings.select - {"JAX001"})):
        return lint_source(text, path, settings)
    from jaxlint.positions import StatementCache, statement_cache

    gc_was_enabled = gc.isenabled()
    gc.disable()
    try:
        module = parser.parse(text)
        if module is None or parser.tree is None:
            return lint_source(text, path, settings)
        if parser.positions is None:
            parser.positions = StatementCache()
        with statement_cache(parser.positions):
            result = _parse_and_analyze(FileResult(path=path), text, path, settings, module)
        if result.project is not None:
            _fill_lines(result.project, parser.tree)
        return result
    finally:
        if gc_was_enabled:
            gc.enable()
