"""Lint one file: decode, prefilter, parse once, run the engine, report.

This is the per-file pipeline every front end uses (CLI workers, stdin, the
cache, the fixer, the runtime companion).  It never raises for bad input: a file
that cannot be decoded gets ``FileResult.error``; a file that does not parse
gets a JAX001 finding.
"""

from __future__ import annotations

import ast
import gc
import io
import json
import re
import tokenize
from typing import Optional, Union

import libcst as cst

from jaxlint.findings import FileResult, Finding, Severity
from jaxlint.settings import LintSettings

# A file that mentions none of these is not parsed at all (the cheap prefilter).
# A JAX rule can only fire where one of these modules is imported.
PREFILTER_TOKENS = (
    b"jax",
    b"flax",
    b"equinox",
    b"optax",
    b"chex",
    b"numpyro",
    b"diffrax",
    b"distrax",
    b"haiku",
)
_PREFILTER_RE = re.compile(b"|".join(re.escape(t) for t in PREFILTER_TOKENS))


def mentions_jax(data: bytes) -> bool:
    return _PREFILTER_RE.search(data) is not None


def decode_source(data: bytes) -> tuple[Optional[str], Optional[str]]:
    """Return (text, None) or (None, one-line reason).  Honours a BOM and a
    PEP 263 coding cookie, as Python itself does."""
    try:
        encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
    except SyntaxError as exc:  # bad cookie
        return None, f"cannot determine the encoding: {exc}"
    try:
        text = data.decode(encoding)
    except (UnicodeDecodeError, LookupError) as exc:
        return None, f"not valid {encoding} ({exc.__class__.__name__}: {exc})"
    if text.startswith("\ufeff"):
        text = text[1:]
    return text, None


def _syntax_error_finding(path: str, text: str, exc: Exception) -> Finding:
    """JAX001 at the position Python itself reports (libcst's native parser
    often points at the next token); libcst's own position as a fallback."""
    line, col, message = None, None, None
    try:
        compile(text, path, "exec", flags=ast.PyCF_ONLY_AST, dont_inherit=True)
    except SyntaxError as py_exc:
        line = py_exc.lineno or 1
        col = max((py_exc.offset or 1), 1)
        message = py_exc.msg
    except (ValueError, RecursionError, MemoryError):
        pass
    if line is None:
        line = getattr(exc, "editor_line", None) or getattr(exc, "raw_line", 1) or 1
        col = getattr(exc, "editor_column", None) or 1
        raw = getattr(exc, "message", None) or str(exc)
        message = str(raw).strip().splitlines()[0] if str(raw).strip() else "syntax error"
    return Finding(
        code="JAX001",
        name="syntax-error",
        message=f"The file does not parse: {message}",
        path=path,
        line=int(line),
        col=int(col),
        end_line=int(line),
        end_col=int(col),
        severity=Severity.ERROR,
    )


def lint_source(
    source: Union[str, bytes],
    path: str,
    settings: LintSettings,
    *,
    prefilter: bool = True,
) -> FileResult:
    """Lint the text of one file.  ``path`` is used for messages only.

    With ``settings.module`` set (the file is part of a project the driver
    indexes), ``FileResult.project`` carries the file's summary and what it tells
    the other modules; ``settings.facts`` is what they tell it."""
    result = FileResult(path=path)
    if settings.facts or settings.summarize:
        prefilter = False  # a helper module that never names JAX can still run traced
    if isinstance(source, bytes):
        # decode first: a file that cannot be decoded is reported whatever it contains
        text, err = decode_source(source)
        if text is None:
            result.error = err
            return result
        if prefilter and not mentions_jax(source):
            return result
    else:
        text = source
        if prefilter and not mentions_jax(text.encode("utf-8", "surrogatepass")):
            return result
    if "# jaxlint: skip-file" in text and _has_skip_file(text):
        return result
    # The cyclic GC would rescan the whole syntax tree again and again while it
    # is alive (measured: ~0.15x a parse); nothing made here needs it before
    # the file is done, so collect only between files.
    gc_was_enabled = gc.isenabled()
    gc.disable()
    try:
        return _parse_and_analyze(result, text, path, settings)
    finally:
        if gc_was_enabled:
            gc.enable()


def _parse_and_analyze(result: FileResult, text: str, path: str, settings: LintSettings) -> FileResult:
    try:
        module = cst.parse_module(text)
    except cst.ParserSyntaxError as exc:
        if "JAX001" in settings.select:
            result.findings.append(_syntax_error_finding(path, text, exc))
        return result
    except (RecursionError, MemoryError, ValueError) as exc:  # pathological input
        result.error = f"cannot be parsed ({exc.__class__.__name__})"
        return result
    result.parsed = True
    from jaxlint.engine import analyze
    from jaxlint.rules import all_rules

    if settings.module is None:
        result.findings.extend(analyze(module, text, path, settings, all_rules()))
    else:
        from jaxlint.project.summary import extract_summary

        facts = json.loads(settings.facts) if settings.facts else None
        out: dict = {}
        result.findings.extend(analyze(module, text, path, settings, all_rules(), facts, out))
        out["summary"] = extract_summary(module, settings.module, settings.is_package)
        result.project = out
    result.findings.sort(key=Finding.sort_key)
    return result


_SKIP_FILE_RE = re.compile(r"^\s*#\s*jaxlint:\s*skip-file\b", re.MULTILINE)


def _has_skip_file(text: str) -> bool:
    return _SKIP_FILE_RE.search(text) is not None
