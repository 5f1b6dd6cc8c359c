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

It is a parse strategy of the linter's one entry (``lint_source(...,
parse=parser)``, a ``jaxlint.lint.linter.PrebuiltParse``): the buffer is decoded,
judged by CPython (a syntax error gets its JAX001), measured against the
guard's limits and prefiltered before the parser sees it.  Whenever anything is
unusual (libcst cannot parse a statement on its own), it returns None and the
linter parses the whole buffer the ordinary way.
"""

from __future__ import annotations

import ast
from contextlib import AbstractContextManager
from typing import Optional

import libcst as cst

from jaxlint.findings import FileResult
from jaxlint.parse.lines import LINE_BREAK, split_lines
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
        self.positions = None  # a jaxlint.parse.positions.StatementCache, made on first use
        self.tree: Optional[ast.Module] = None  # Python's tree of the last text parsed
        self.reused = 0  # statements taken from the previous versions (for tests)
        self.parsed = 0  # statements parsed anew

    def analysis(self) -> AbstractContextManager:
        """Around the analysis of a tree this parser built: positions are
        generated only for the statements that hold a finding."""
        from jaxlint.parse.positions import StatementCache, statement_cache

        if self.positions is None:
            self.positions = StatementCache()
        return statement_cache(self.positions)

    def parse(self, text: str, tree: Optional[ast.Module] = None) -> Optional[cst.Module]:
        """libcst's tree of ``text`` (``tree``: CPython's tree of it, when the
        caller has it), equal to ``libcst.parse_module(text)``; None where
        only a whole parse will do."""
        try:
            return self._parse(text, tree)
        except Exception:  # anything unusual: the caller parses the whole buffer
            return None

    def _parse(self, text: str, tree: Optional[ast.Module]) -> Optional[cst.Module]:
        self.tree = None
        if tree is None:
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
        # Every chunk but the last is parsed with the start of a statement after it,
        # at column 0 as the next chunk's statement is: libcst then shares out the
        # lines between the two (blank lines, comments at any indentation) as the
        # whole parse does (the deeper ones to the block above, the others to the
        # statement below), and reads no chunk's end as the end of the file.
        suffix = f"pass{newline}"
        bounds = [1] + starts[1:] + [len(lines) + 1]  # chunk 0 starts at line 1 (header)
        chunks: dict[tuple, tuple] = {}
        body: list[cst.BaseStatement] = []
        pending: tuple = ()
        joins: dict[tuple, tuple] = {}
        header: tuple = ()
        first_module: Optional[cst.Module] = None
        last_module: Optional[cst.Module] = None
        seen: dict[tuple, int] = {}
        n_chunks = len(bounds) - 1
        for i in range(n_chunks):
            chunk = "".join(lines[bounds[i] - 1: bounds[i + 1] - 1])
            last = i == n_chunks - 1
            text_key = (i == 0, last, chunk, indent, newline)
            # the same text twice in one version (a copied function) gets its own
            # nodes each time: node identity is what positions and findings go by
            occurrence = seen.get(text_key, 0)
            seen[text_key] = occurrence + 1
            key = (*text_key, occurrence)
            got = self._chunks.get(key)
            if got is None:
                source = chunk if last else chunk + suffix
                if i == 0:
                    # the module's header, encoding and indentation come from here
                    module = cst.parse_module(source)
                    stmts = tuple(module.body)
                else:
                    # a leading block gives the chunk the file's indentation, so
                    # its blocks print back with the indentation they have
                    module = cst.parse_module(prefix + source)
                    if module.default_indent != indent or module.default_newline != newline:
                        return None
                    stmts = tuple(module.body[1:])
                    if module.header:
                        return None
                if last:
                    footer = tuple(module.footer)
                else:
                    # the statement after the chunk holds the lines before it
                    if not stmts or module.footer or not isinstance(stmts[-1], cst.SimpleStatementLine) \
                            or len(stmts[-1].body) != 1 or not isinstance(stmts[-1].body[0], cst.Pass):
                        return None
                    footer = tuple(stmts[-1].leading_lines)
                    stmts = stmts[:-1]
                if not stmts:
                    return None
                got = (stmts, footer, module)
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
    project mode too).  The linter's one entry runs every check first (decoding,
    CPython's verdict, the guard's limits, the prefilter, ``skip-file``); only
    the way libcst's tree is obtained differs."""
    from jaxlint.lint.linter import lint_source

    return lint_source(text, path, settings, parse=parser)
