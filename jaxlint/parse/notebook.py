"""Jupyter notebooks (``.ipynb``, nbformat 4): the code cells, in order, as one module.

A notebook is a script run top to bottom, so its code cells are joined into one
Python text (the *virtual module*) that the linter and the project model read
as they read a ``.py`` file; each finding is then mapped back to its cell and
the line and column in that cell.  IPython syntax is made into Python of the
same line count:

* a line magic, shell escape or help request (``%matplotlib inline``,
  ``!pip install jax``, ``x?``; a built-in magic without its ``%``, which
  IPython's automagic runs: ``pip install jax``) becomes ``pass`` (``y = !ls`` / ``t = %time f()``:
  the right-hand side becomes ``None``);
* ``%time EXPR`` / ``%timeit [-n N ...] EXPR`` becomes a timed call the model reads
  (``__jaxlint_timeit__(lambda: EXPR)``: JAX505 reports timing without
  ``block_until_ready``), columns of ``EXPR`` mapped back;
* a cell magic whose body is Python (``%%time``, ``%%timeit``, ``%%capture``...)
  keeps its body, the magic line becomes a comment (``%%time``/``%%timeit``
  cells are timed bodies for JAX505); any other cell magic (``%%bash``,
  ``%%writefile``...) leaves only blank lines.  Colab's form annotations
  (``#@title ...``, ``#@markdown ...``) may stand above the cell magic's line.

Between two cells stands a boundary comment, so a fixed virtual module splits
back into its cells.  ``Notebook.rebuild`` writes the fixed cells back into the
notebook's JSON, keeping everything else byte for byte (outputs, execution
counts, metadata, ids, key order, indentation, the trailing newline) or refusing
when the file's JSON layout is not one it can reproduce.

The format is nbformat 4's JSON (https://nbformat.readthedocs.io/en/latest/format_description.html):
``{"cells": [{"cell_type": "code", "source": str | [str, ...], ...}], "nbformat": 4, ...}``.
"""

from __future__ import annotations

import bisect
import difflib
import json
import re
from dataclasses import dataclass, field
from typing import Optional, Union

from jaxlint.parse.lines import LINE_BREAK

NOTEBOOK_SUFFIX = ".ipynb"

# the functions a `%timeit` / `%time` magic becomes (`%%timeit` / `%%time` cells: `with`
# them): known to JAX505 (timing) by name; two names, so a message names the magic used
TIMEIT_MAGIC = "__jaxlint_timeit__"
TIME_MAGIC = "__jaxlint_time__"
# a `%%time` cell's line takes no comment (IPython: "Can't use statement directly after
# '%%time'!"): its `# noqa` goes on the cell's next line (engine/suppression.py)
TIME_CELL_LINE = f"with {TIME_MAGIC}():"
_BOUNDARY = "# jaxlint: cell boundary {}"

_BOUNDARY_RE = re.compile(r"# jaxlint: cell boundary \d+$")


def is_cell_boundary(comment: str) -> bool:
    """Is ``comment`` (a comment's text, ``#`` included) the virtual module's line
    between two code cells?"""
    return _BOUNDARY_RE.match(comment) is not None


_LINE_RE = re.compile(r"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+$")
_LINE_MAGIC_RE = re.compile(r"^(\s*)([%!].*)$")
_HELP_RE = re.compile(r"^(\s*)(\?\??[\w\.]+|[\w\.\(\)\[\]]+\?\??)\s*$")
# `%timeit -n10 -r 3 -q f(x)`: the options (-n/-r/-p take a number, -t -c -q -o none), then the code
_TIME_MAGIC_RE = re.compile(r"^(\s*)%(timeit|time)\b((?:\s+(?:-[nrp]\s*\d+|-[tcqo]\b))*)\s+(?=\S)")
# cell magics whose body is Python run in the kernel
_PYTHON_CELL_MAGICS = frozenset({"time", "timeit", "capture", "prun", "debug", "pypy", "python", "python3"})
_TIMED_CELL_MAGICS = frozenset({"time", "timeit"})
# IPython's automagic: a line starting with the name of one of its built-in line
# magics or shell aliases, then a space, runs as that magic without the `%`
# (`pip install optax` is `%pip install optax`; checked with IPython 8.12's
# prefilter).  Only a line that is not Python anyway is taken as one.
_AUTOMAGICS = frozenset({
    "alias", "alias_magic", "autoawait", "autocall", "automagic", "bookmark", "cat", "cd", "colors", "conda",
    "config", "cp", "debug", "dhist", "dirs", "doctest_mode", "ed", "edit", "env", "gui", "hist", "history",
    "killbgscripts", "ldir", "lf", "lk", "ll", "load", "load_ext", "loadpy", "logoff", "logon", "logstart",
    "logstate", "logstop", "ls", "lsmagic", "lx", "macro", "magic", "mamba", "matplotlib", "micromamba", "mkdir",
    "mv", "notebook", "page", "pastebin", "pdb", "pdef", "pdoc", "pfile", "pinfo", "pinfo2", "pip", "popd",
    "pprint", "precision", "prun", "psearch", "psource", "pushd", "pwd", "pycat", "pylab", "quickref", "recall",
    "rehashx", "reload_ext", "rep", "rerun", "reset", "reset_selective", "rm", "rmdir", "run", "save", "sc",
    "set_env", "sx", "system", "tb", "unalias", "unload_ext", "who", "who_ls", "whos", "xdel", "xmode",
})
# (`precision = {`, `ls, n = ...`: an assignment or a tuple, which IPython leaves as Python)
_AUTOMAGIC_RE = re.compile(r"^(\s*)([A-Za-z_]\w*)[ \t]+[^\s=,]")


def is_notebook(path: Union[str, object]) -> bool:
    return str(path).endswith(NOTEBOOK_SUFFIX)


class NotebookError(ValueError):
    """The file is not a notebook jaxlint can read: one clear line.  ``line`` and
    ``col`` (1-based) say where in the file, when known (invalid JSON); ``short`` is
    the line without that position, for a finding reported at it."""

    def __init__(self, message: str, line: int = 1, col: int = 1, short: str = "") -> None:
        super().__init__(message)
        self.line, self.col, self.short = line, col, short or message


@dataclass
class _Line:
    cell: int  # 1-based, counting every cell (markdown and raw too), as Ruff and Jupyter count
    line: int  # 1-based line in the cell
    col_from: int = 0  # columns >= col_from (0-based, in the virtual line) shift by delta
    delta: int = 0
    magic: bool = False  # IPython syntax from col_from on: columns there clamp to its start
    length: int = 0  # the original line's length
    indent: int = 0  # columns put in front of the whole line (a timed cell's body)


@dataclass
class Notebook:
    raw: dict
    text: str  # the virtual module
    lines: list[Optional[_Line]]  # for each virtual line (0-based): where it comes from; None: a boundary
    cell_sources: dict[int, str] = field(default_factory=dict)  # cell number -> its source
    code_cells: list[int] = field(default_factory=list)
    virtual_cells: dict[int, list[str]] = field(default_factory=dict)  # cell -> its virtual lines
    data: bytes = b""

    # ---- reading
    @classmethod
    def from_bytes(cls, data: bytes) -> "Notebook":
        if not data.strip():  # (Jupyter cannot open it either: "Notebook does not appear to be JSON")
            raise NotebookError("the file is empty (a notebook is nbformat 4 JSON)")
        try:
            raw = json.loads(data.decode("utf-8-sig"))
        except UnicodeDecodeError as exc:
            raise NotebookError(f"not a notebook: not valid UTF-8 ({exc.reason})") from None
        except json.JSONDecodeError as exc:
            raise NotebookError(f"not a notebook: not valid JSON ({exc})", exc.lineno, exc.colno,
                                f"not a notebook: not valid JSON ({exc.msg})") from None
        except ValueError as exc:
            raise NotebookError(f"not a notebook: not valid JSON ({exc})") from None
        except RecursionError:  # (an output nested thousands deep)
            raise NotebookError("not a notebook jaxlint reads: its JSON is nested too deeply") from None
        version = raw.get("nbformat") if isinstance(raw, dict) else None
        if isinstance(version, int) and not isinstance(version, bool) and version != 4:
            # nbformat 3 keeps its cells under `worksheets`: say so, not "no cells"
            raise NotebookError(f"nbformat {version} is not supported: jaxlint reads nbformat 4"
                                + (" (opening and saving it in Jupyter converts it)"
                                   if version < 4 else ""))
        if not isinstance(raw, dict) or not isinstance(raw.get("cells"), list):
            raise NotebookError("not a notebook: no `cells` list")
        if version != 4:
            raise NotebookError(f"not a notebook jaxlint reads: nbformat {version!r} (4 is read)")
        nb = cls(raw=raw, text="", lines=[], data=data)
        parts: list[str] = []
        for number, cell in enumerate(raw["cells"], start=1):
            if not isinstance(cell, dict):
                raise NotebookError(f"not a notebook: cell {number} is not an object")
            if cell.get("cell_type") != "code":
                continue
            source = cell.get("source", "")
            if isinstance(source, list):
                if not all(isinstance(s, str) for s in source):
                    raise NotebookError(f"not a notebook: cell {number}'s source is not text")
                source = "".join(source)
            elif not isinstance(source, str):
                raise NotebookError(f"not a notebook: cell {number}'s source is not text")
            nb.cell_sources[number] = source
            if nb.code_cells:
                parts.append(_BOUNDARY.format(number) + "\n")
                nb.lines.append(None)
            nb.code_cells.append(number)
            virtual = _cell_lines(source, number, nb.lines)
            nb.virtual_cells[number] = virtual
            parts.extend(virtual)
        nb.text = "".join(parts)
        return nb

    @staticmethod
    def text_boundary(number: int) -> str:
        """The virtual module's line that opens code cell ``number`` (after the first)."""
        return _BOUNDARY.format(number) + "\n"

    def rewritten_lines(self) -> frozenset[int]:
        """The 1-based virtual lines that are not their cell's line as written (IPython
        syntax read as Python, a timed statement): a fix that changes one cannot be
        written back (``rebuild`` refuses it), so none is offered there."""
        out: set[int] = set()
        cells: dict[int, tuple[list[str], str]] = {}  # cell -> (its source lines, the indent taken off)
        for k, info in enumerate(self.lines):
            if info is None:
                continue
            if info.cell not in cells:
                lines = _LINE_RE.findall(self.cell_sources.get(info.cell, ""))
                cells[info.cell] = (lines, _leading_indent(lines))
            original, space = cells[info.cell]
            virtual = self.virtual_cells.get(info.cell, [])
            if info.line > len(original) or info.line > len(virtual):
                continue
            if not _as_written(virtual[info.line - 1], original[info.line - 1], space):
                out.add(k + 1)
        return frozenset(out)

    # ---- positions
    def position(self, line: int, col: int, end: bool = False) -> tuple[int, int, int]:
        """(cell, line, column) in the cell, all 1-based, of a 1-based virtual
        position (``end``: the end of a range: inside IPython syntax, the line's end)."""
        if not self.lines:
            return 1, line, col
        info = self.lines[min(max(line, 1), len(self.lines)) - 1]
        if info is None:  # a boundary: the end of the cell before it
            k = min(max(line, 1), len(self.lines)) - 1
            while k > 0 and self.lines[k] is None:
                k -= 1
            info = self.lines[k]
            if info is None:
                return 1, 1, 1
            return info.cell, info.line, 1
        col = max(col - info.indent, 1)
        if info.magic:
            if col - 1 < info.col_from:
                return info.cell, info.line, col
            return info.cell, info.line, info.length + 1 if end else info.col_from + 1
        if col - 1 >= info.col_from:
            col += info.delta
        return info.cell, info.line, max(col, 1)

    def virtual_line(self, cell: int, line: int) -> Optional[int]:
        """The 1-based virtual line of a cell's line (None when there is none)."""
        for k, info in enumerate(self.lines):
            if info is not None and info.cell == cell and info.line == line:
                return k + 1
        return None

    def cell_lines(self, cell: int) -> list[str]:
        """The lines of a cell's source, as a code frame shows them."""
        return [ln.rstrip("\r\n") for ln in _LINE_RE.findall(self.cell_sources.get(cell, ""))]

    # ---- writing back
    def rebuild(self, new_text: str) -> bytes:
        """The notebook's bytes with the code cells of the fixed virtual module
        ``new_text``; unchanged cells keep their exact source.  Raises
        NotebookError when the cells cannot be told apart or a changed line was
        IPython syntax, or the JSON layout cannot be kept."""
        chunks = _split_cells(new_text, self.code_cells)
        if chunks is None:
            raise NotebookError("a fix moved a cell boundary")
        changed: dict[int, str] = {}
        for number, new_lines in zip(self.code_cells, chunks):
            old_lines = self.virtual_cells[number]
            if new_lines == old_lines:
                continue
            changed[number] = _restore(self.cell_sources[number], old_lines, new_lines)
        if not changed:
            return self.data
        layout = _layout(self.data, self.raw)
        raw = json.loads(self.data.decode("utf-8-sig"))
        for number, source in changed.items():
            cell = raw["cells"][number - 1]
            if isinstance(cell.get("source"), list):
                cell["source"] = _split_like(cell["source"], source)
            else:
                cell["source"] = source
        return _dump(raw, layout)


def _split_like(old: list, source: str) -> list[str]:
    """``source`` as a list of lines split as the cell's list was: at "\n" only
    (nbformat's form), or at every line break when that is how its lines were kept
    (each ending in a lone "\r", as some editors write them)."""
    joined = "".join(s for s in old if isinstance(s, str))
    if old != _split_keep_nl(joined) and old == _LINE_RE.findall(joined):
        return _LINE_RE.findall(source)
    return _split_keep_nl(source)


def _split_keep_nl(source: str) -> list[str]:
    """nbformat's list form: lines that keep their "\\n" (split on "\\n" only)."""
    out = []
    start = 0
    while True:
        k = source.find("\n", start)
        if k < 0:
            if start < len(source):
                out.append(source[start:])
            return out
        out.append(source[start:k + 1])
        start = k + 1


def _cell_lines(source: str, number: int, lines: list[Optional[_Line]]) -> list[str]:
    """The virtual lines of one code cell (each ending in "\\n"); appends their map to ``lines``."""
    original = [ln for ln in _LINE_RE.findall(source)]
    # IPython's `leading_indent` clean-up: a cell whose first non-blank line is
    # indented runs with that indent taken off every line that starts with it
    space = _leading_indent(original)
    strip = [len(space) if space and ln.startswith(space) else 0 for ln in original]
    physical = [ln[k:] for ln, k in zip(original, strip)]
    out: list[str] = []
    cell_magic: Optional[str] = None
    # the cell magic's line: the first, or the first after Colab's form annotations
    # (`#@title ...`, `#@markdown ...`), which Colab reads before the cell runs
    at = next((k for k, ln in enumerate(physical) if ln.strip() and not ln.lstrip().startswith("#@")), 0)
    if physical and physical[at].lstrip().startswith("%%"):
        m = re.match(r"\s*%%(\w+)", physical[at])
        cell_magic = m.group(1) if m else ""
    else:
        at = 0
    rest = physical[at + 1:] if cell_magic is not None else physical
    inside = _continued(physical) if any(_maybe_magic(x) for x in rest) else None
    magic_goes_on = False  # the previous line is a magic ending in a backslash
    for i, line in enumerate(physical):
        body = line.rstrip("\r\n")
        info = _Line(cell=number, line=i + 1, length=len(body) + strip[i], indent=-strip[i])
        if magic_goes_on:
            # IPython joins a magic's backslash-continued lines into the magic
            # (`!python main.py \` then `  --flag=...`): part of it, not Python
            magic_goes_on = body.rstrip().endswith("\\")
            info.magic = True
            info.col_from += strip[i]
            out.append("\n")
            lines.append(info)
            continue
        if inside is not None and inside[i]:  # in a string, brackets or after a backslash: not a magic
            info.col_from += strip[i]
            out.append(body + "\n")
            lines.append(info)
            continue
        if cell_magic is not None and i < at:  # a form annotation above the magic: a comment
            body, info = _line_magic(body, info)
        elif cell_magic is not None:
            if i == at:
                comment = body[body.index("#"):] if "#" in body else ""  # `%%timeit  # noqa: JAX505`
                body, info.magic = ("  " + comment) if comment else "", True
                if cell_magic in _TIMED_CELL_MAGICS:
                    body = (TIME_CELL_LINE if cell_magic == "time" else f"with {TIMEIT_MAGIC}():") + body
            elif cell_magic in _TIMED_CELL_MAGICS:
                if inside is None or not inside[i]:
                    body, info = _line_magic(body, info)
                body = "    " + body  # the timed body: under `with __jaxlint_timeit__():`
                info.indent += 4
            elif cell_magic not in _PYTHON_CELL_MAGICS:
                body, info.magic = "", True
            elif inside is None or not inside[i]:
                body, info = _line_magic(body, info)
        else:
            body, info = _line_magic(body, info)
        if info.magic and not (cell_magic is not None and i == at):
            magic_goes_on = line.rstrip("\r\n").rstrip().endswith("\\")
        info.col_from += strip[i]  # (columns from here on count in the cell's own line)
        out.append(body + "\n")
        lines.append(info)
    if cell_magic in _TIMED_CELL_MAGICS and len(physical) == at + 1:
        out.append("    pass\n")
        lines.append(_Line(cell=number, line=at + 1, magic=True))
    return out


def _leading_indent(lines: list[str]) -> str:
    """The indent IPython takes off a cell's lines (``leading_empty_lines`` then
    ``leading_indent``): the first non-blank line's leading spaces and tabs."""
    for ln in lines:
        if ln.strip():
            return ln[: len(ln) - len(ln.lstrip(" \t"))]
    return ""


def _maybe_magic(line: str) -> bool:
    stripped = line.strip()
    return bool(stripped) and (stripped[0] in "%!?" or stripped.endswith("?")
                               or ("=" in stripped and ("%" in stripped or "!" in stripped))
                               or _automagic(line) is not None)


def _automagic(line: str) -> Optional[re.Match]:
    """`pip install x`: a built-in line magic called without its `%` (a line that is not Python)."""
    m = _AUTOMAGIC_RE.match(line)
    if m is None or m.group(2) not in _AUTOMAGICS:
        return None
    return None if _is_python(line) else m


def _continued(lines: list[str]) -> list[bool]:
    """For each line: does it start inside a string, brackets, or after a
    backslash continuation (so it cannot be IPython syntax)?  A small lexer:
    strings (one-quote, triple-quote, escapes), comments, bracket depth."""
    out = []
    depth = 0
    quote = ""  # the open string's delimiter
    backslash = False
    for line in lines:
        out.append(bool(quote) or depth > 0 or backslash)
        backslash = False
        i, n = 0, len(line)
        while i < n:
            c = line[i]
            if quote:
                if c == "\\":
                    i += 2
                    continue
                if line.startswith(quote, i):
                    i += len(quote)
                    quote = ""
                    continue
                i += 1
                continue
            if c == "#":
                break
            if c in "'\"":
                triple = line[i:i + 3]
                quote = triple if triple in ("'''", '"""') else c
                i += len(quote)
                continue
            if c in "([{":
                depth += 1
            elif c in ")]}":
                depth = max(0, depth - 1)
            elif c == "\\" and not line[i + 1:].strip("\r\n"):
                backslash = True
            i += 1
        if quote in ("'", '"') and not backslash:
            quote = ""  # a one-quote string ends with its line (else: a syntax error anyway)
    return out


def _line_magic(body: str, info: _Line) -> tuple[str, _Line]:
    if not _maybe_magic(body):
        return body, info
    m = _TIME_MAGIC_RE.match(body)
    if m:
        indent, expr_start = m.group(1), m.end()
        prefix = f"{indent}{TIME_MAGIC if m.group(2) == 'time' else TIMEIT_MAGIC}(lambda: "
        info.col_from, info.delta = len(prefix), expr_start - len(prefix)
        expr, comment = _split_comment(body[expr_start:])
        if _is_expression(expr):
            return prefix + expr + ")" + comment, info
        timed = f"{indent}with {TIME_MAGIC if m.group(2) == 'time' else TIMEIT_MAGIC}(): "
        if _is_python(timed + expr):
            # `%time y = f(x)`: a timed simple statement, as one `%%time` cell of one line
            # (it runs, and binds `y`, as written); the with-line is the magic's
            info.col_from, info.delta = len(timed), expr_start - len(timed)
            return timed + expr + comment, info
        if _is_python(expr):  # the statement runs (and binds `y`) as written
            info.col_from, info.delta = len(indent), expr_start - len(indent)
            return indent + expr + comment, info
        info.col_from, info.delta = 0, 0
    target = _assign_magic_target(body)
    if target is not None and not _is_python(body):
        info.magic = True
        info.col_from = len(target)
        return target + "None", info
    m = _LINE_MAGIC_RE.match(body) or _HELP_RE.match(body) or _automagic(body)
    if m and not _is_python(body):
        info.magic, info.col_from = True, len(m.group(1))
        return m.group(1) + "pass", info
    return body, info


def _assign_magic_target(line: str) -> Optional[str]:
    """``TARGET = %magic ...`` / ``TARGET = !cmd``: the text up to the right-hand side.

    As IPython's ``MagicAssign``/``SystemAssign`` read it: the first ``=`` outside
    brackets, any assignment target before it (``t``, ``a, b``, ``times[c]``,
    ``self.t``)."""
    depth, quote, escaped = 0, "", False
    for i, ch in enumerate(line):
        if quote:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == quote:
                quote = ""
        elif ch in "'\"":
            quote = ch
        elif ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
        elif ch == "#":
            return None
        elif ch == "=" and depth == 0:
            if line[i + 1:i + 2] == "=" or (i and line[i - 1] in "=!<>:+-*/%&|^@"):
                return None
            rest = line[i + 1:]
            value = rest.lstrip()
            if not value or value[0] not in "%!" or not line[:i].strip():
                return None
            if not _is_python(line[:i].rstrip() + " = None"):
                return None
            return line[:i + 1] + rest[: len(rest) - len(value)]
    return None


def _split_comment(expr: str) -> tuple[str, str]:
    """(the code, its trailing comment with the spaces before it)."""
    import io
    import tokenize

    try:
        for tok in tokenize.generate_tokens(io.StringIO(expr).readline):
            if tok.type == tokenize.COMMENT:
                code = expr[: tok.start[1]]
                stripped = code.rstrip()
                return stripped, code[len(stripped):] + expr[tok.start[1]:]
    except (tokenize.TokenError, SyntaxError, IndentationError):
        pass
    return expr, ""


def _is_expression(code: str) -> bool:
    try:
        compile(code.strip(), "<magic>", "eval", dont_inherit=True)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return False
    return True


def _is_python(line: str) -> bool:
    try:
        compile(line.strip(), "<cell>", "exec", dont_inherit=True)
    except SyntaxError:
        return False
    except (ValueError, RecursionError, MemoryError):
        return False
    return True


def _split_cells(text: str, code_cells: list[int]) -> Optional[list[list[str]]]:
    lines = _LINE_RE.findall(text)
    chunks: list[list[str]] = [[]]
    expected = iter(code_cells[1:])
    want = next(expected, None)
    for line in lines:
        if want is not None and line.rstrip("\r\n") == _BOUNDARY.format(want):
            chunks.append([])
            want = next(expected, None)
            continue
        chunks[-1].append(line if line.endswith(("\n", "\r")) else line + "\n")
    if want is not None or len(chunks) != len(code_cells):
        return None
    return chunks


def _restore(source: str, old_virtual: list[str], new_virtual: list[str]) -> str:
    """The cell's new source: unchanged virtual lines give back their original
    line (IPython syntax included), changed ones are taken as fixed; raises when
    a changed line was IPython syntax."""
    original = _LINE_RE.findall(source)
    space = _leading_indent(original)  # taken off the virtual lines (IPython's clean-up): put back
    ends_with_nl = source.endswith(("\n", "\r"))
    out: list[str] = []
    matcher = difflib.SequenceMatcher(a=old_virtual, b=new_virtual, autojunk=False)
    for op, a0, a1, b0, b1 in matcher.get_opcodes():
        if op == "equal":
            out.extend(original[a0:a1] if a1 <= len(original) else original[a0:])
            continue
        nl = _newline_of(original)
        if op == "replace" and a1 - a0 == b1 - b0:
            # a comment appended to IPython syntax (`%timeit f(x)  # noqa: JAX505`) is kept
            kept = [_with_comment(original[k], old_virtual[k], new_virtual[b0 + k - a0])
                    for k in range(a0, a1) if k < len(original)]
            if len(kept) == a1 - a0 and all(x is not None for x in kept):
                out.extend(kept)  # type: ignore[arg-type]
                continue
        for k in range(a0, a1):
            if k < len(original):
                if not _as_written(old_virtual[k], original[k], space):
                    raise NotebookError("a fix changed a line with IPython syntax")
        out.extend((space if line.strip() else "") + (line[:-1] + nl if line.endswith("\n") else line)
                   for line in new_virtual[b0:b1])
    text = "".join(out)
    if not ends_with_nl and text.endswith("\n"):
        text = text[:-1]
    return text


def _as_written(virtual: str, original: str, space: str) -> bool:
    """Is the virtual line the cell's line as written (less the indent IPython takes
    off the cell), not IPython syntax read as Python?"""
    was = original[len(space):] if space and original.startswith(space) else original
    return virtual.rstrip("\n") == was.rstrip("\r\n")


def _with_comment(original: str, old: str, new: str) -> Optional[str]:
    """``original`` with the comment ``new`` adds at the end of ``old``, or None."""
    old, new = old.rstrip("\n"), new.rstrip("\n")
    extra = new[len(old):]
    if not new.startswith(old) or not extra.strip().startswith("#"):
        return None
    body = original.rstrip("\r\n")
    return body + extra + original[len(body):]


def _newline_of(lines: list[str]) -> str:
    for ln in lines:
        if ln.endswith("\r\n"):
            return "\r\n"
        if ln.endswith("\r"):
            return "\r"
        if ln.endswith("\n"):
            return "\n"
    return "\n"


# ---- the JSON layout
@dataclass(frozen=True)
class _Layout:
    indent: Optional[int]
    ensure_ascii: bool
    newline: bool
    bom: bool
    spaced: bool = False  # one line: ", " and ": " between items (json.dumps' default)
    crlf: bool = False  # every line ends with CRLF (Jupyter on Windows, text mode)


def _dump(raw: dict, layout: _Layout) -> bytes:
    separators = (",", ": ") if layout.indent is not None else ((", ", ": ") if layout.spaced else (",", ":"))
    text = json.dumps(raw, indent=layout.indent, ensure_ascii=layout.ensure_ascii, separators=separators)
    if layout.newline:
        text += "\n"
    if layout.crlf:  # json.dumps escapes newlines inside strings: each "\n" is the layout's
        text = text.replace("\n", "\r\n")
    return (b"\xef\xbb\xbf" if layout.bom else b"") + text.encode("utf-8")


def _layout(data: bytes, raw: dict) -> _Layout:
    """The json.dumps settings that write ``data`` back byte for byte (Jupyter
    writes indent=1, key order as read, non-ASCII kept, a final newline; on Windows
    its text-mode write turns every newline into CRLF)."""
    bom = data.startswith(b"\xef\xbb\xbf")
    newline = data.endswith(b"\n")
    crlf = b"\r\n" in data and data.count(b"\n") == data.count(b"\r\n")
    for indent in (1, 2, 4, None, 3):
        for ensure_ascii in (False, True):
            for spaced in ((False, True) if indent is None else (False,)):
                layout = _Layout(indent, ensure_ascii, newline, bom, spaced, crlf)
                if _dump(raw, layout) == data:
                    return layout
    raise NotebookError("its JSON layout cannot be written back unchanged (not as Jupyter or nbformat write it)")


def writable(nb: "Notebook") -> bool:
    """Whether a fix of ``nb`` can be written back keeping its JSON layout."""
    try:
        _layout(nb.data, nb.raw)
    except NotebookError:
        return False
    return True


# ---- findings
_LINE_REF_RE = re.compile(r"\bline (\d+)\b")


def map_findings(nb: Notebook, findings: list) -> list:
    """Findings on the virtual module -> findings on cells (``Finding.cell``,
    lines and columns relative to the cell; "line N" in a message too)."""
    from dataclasses import replace

    out = []
    for f in findings:
        cell, line, col = nb.position(f.line, f.col)
        end_cell, end_line, end_col = nb.position(f.end_line, f.end_col, end=True)
        if end_cell != cell:
            end_line, end_col = line, col
        fix = f.fix
        if fix is not None:
            edits = []
            for e in fix.edits:
                ec, el, eco = nb.position(e.line, e.col)
                _, eel, eeco = nb.position(e.end_line, e.end_col, end=True)
                edits.append(replace(e, line=el, col=eco, end_line=eel, end_col=eeco, cell=ec))
            fix = replace(fix, edits=tuple(edits))
        out.append(replace(f, line=line, col=col, end_line=end_line, end_col=end_col, cell=cell,
                           message=_map_message(nb, f.message, cell), fix=fix))
    return out


def _map_message(nb: Notebook, message: str, cell: int) -> str:
    def sub(m: re.Match) -> str:
        c, line, _ = nb.position(int(m.group(1)), 1)
        return f"line {line}" if c == cell else f"line {line} of cell {c}"

    return _LINE_REF_RE.sub(sub, message)


# ---- lines of the notebook's JSON text (for annotations placed on the raw file)

_WS = re.compile(r"[ \t\n\r]*")


def _json_scan(text: str, i: int):
    """One JSON value at ``i``: (node, end), where a string is (its offset, its
    text), an object a dict of nodes, an array a list of nodes, anything else
    None.  Raises ValueError on bad JSON."""
    i = _WS.match(text, i).end()
    c = text[i:i + 1]
    if c == '"':
        s, end = json.decoder.scanstring(text, i + 1)
        return (i, s), end
    if c == "{":
        obj: dict = {}
        i = _WS.match(text, i + 1).end()
        if text[i:i + 1] == "}":
            return obj, i + 1
        while True:
            i = _WS.match(text, i).end()
            if text[i:i + 1] != '"':
                raise ValueError("expected a key")
            key, i = json.decoder.scanstring(text, i + 1)
            i = _WS.match(text, i).end()
            if text[i:i + 1] != ":":
                raise ValueError("expected ':'")
            obj[key], i = _json_scan(text, i + 1)
            i = _WS.match(text, i).end()
            if text[i:i + 1] == "}":
                return obj, i + 1
            if text[i:i + 1] != ",":
                raise ValueError("expected ','")
            i += 1
    if c == "[":
        arr: list = []
        i = _WS.match(text, i + 1).end()
        if text[i:i + 1] == "]":
            return arr, i + 1
        while True:
            node, i = _json_scan(text, i)
            arr.append(node)
            i = _WS.match(text, i).end()
            if text[i:i + 1] == "]":
                return arr, i + 1
            if text[i:i + 1] != ",":
                raise ValueError("expected ','")
            i += 1
    m = json.scanner.NUMBER_RE.match(text, i)  # type: ignore[attr-defined]
    if m is not None:
        return None, m.end()
    for word in ("true", "false", "null", "NaN", "Infinity", "-Infinity"):
        if text.startswith(word, i):
            return None, i + len(word)
    raise ValueError(f"unexpected {c!r}")


def json_lines(text: str) -> dict[int, list[int]]:
    """For each cell (numbered from 1, as findings name them): the line of the
    notebook's JSON text on which each of its source lines starts.  A source
    kept as a list of strings has one JSON line per source line; one kept as a
    single string has all its lines on the string's JSON line.  Empty when the
    text is not such JSON."""
    return JsonPlaces(text).lines()


class JsonPlaces:
    """Where the cells' source text is in a notebook's JSON text: what a tool that
    reads the raw ``.ipynb`` (GitHub code scanning, GitLab, a SARIF viewer) needs to
    point at a finding whose position counts in its cell."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.cells: dict[int, list[tuple[int, str]]] = {}  # cell -> (offset of its '"', text)
        try:
            root, _ = _json_scan(text, 1 if text.startswith("\ufeff") else 0)
        except (ValueError, IndexError, RecursionError):
            return
        cells = root.get("cells") if isinstance(root, dict) else None
        if not isinstance(cells, list):
            return
        for number, cell in enumerate(cells, start=1):
            source = cell.get("source") if isinstance(cell, dict) else None
            items = [source] if isinstance(source, tuple) else source if isinstance(source, list) else []
            kept: list[tuple[int, str]] = []
            for item in items:
                if not isinstance(item, tuple):
                    break
                kept.append(item)
            self.cells[number] = kept
        self._breaks = [m.start() for m in re.finditer("\n", text)]

    def _line_of(self, offset: int) -> int:
        return bisect.bisect_left(self._breaks, offset) + 1

    def lines(self) -> dict[int, list[int]]:
        out: dict[int, list[int]] = {}
        for number, items in self.cells.items():
            starts: list[int] = []
            line_ended = True  # the previous string ended its last line
            for offset, s in items:
                json_line = self._line_of(offset)
                # lines that start in this string: at its start (unless the previous one
                # ended mid-line) and after each newline but a final one
                if line_ended:
                    starts.append(json_line)
                # (line breaks as CPython counts them: a lone "\r" too, as the cell's lines)
                inner = s[:-2] if s.endswith("\r\n") else s[:-1] if s.endswith(("\n", "\r")) else s
                starts.extend([json_line] * len(LINE_BREAK.findall(inner)))
                line_ended = s.endswith(("\n", "\r"))
            out[number] = starts
        return out

    def place(self, cell: int, line: int, col: int, end: bool = False) -> Optional[tuple[int, int]]:
        """(line, column) in the JSON text, both 1-based, of the character at ``line``,
        ``col`` of ``cell``'s source (``end``: of the position just after a range, which
        may be the closing quote of its string); None when the cell's source is not
        there to be found."""
        items = self.cells.get(cell)
        if not items:
            return None
        source_starts = [0]
        for _, s in items:
            source_starts.append(source_starts[-1] + len(s))
        source = "".join(s for _, s in items)
        at = 0
        breaks = LINE_BREAK.finditer(source)  # the cell's lines, as CPython counts them
        for _ in range(line - 1):
            brk = next(breaks, None)
            if brk is None:
                return None
            at = brk.end()
        index = at + col - 1
        if index < 0 or index > len(source):
            return None
        k = bisect.bisect_right(source_starts, index) - 1 if not end else bisect.bisect_left(source_starts, index) - 1
        k = min(max(k, 0), len(items) - 1)
        offset, s = items[k]
        raw = _raw_offset(self.text, offset + 1, index - source_starts[k])
        if raw is None:
            return None
        line_no = self._line_of(raw)
        start_of_line = self._breaks[line_no - 2] + 1 if line_no > 1 else 0
        return line_no, raw - start_of_line + 1


def _raw_offset(text: str, i: int, chars: int) -> Optional[int]:
    """The offset in ``text`` of the JSON string body starting at ``i`` after
    ``chars`` decoded characters (escapes count as the one character they make)."""
    for _ in range(chars):
        c = text[i:i + 1]
        if c == "" or c == '"':
            return None
        if c != "\\":
            i += 1
        elif text[i + 1:i + 2] == "u":
            high = int(text[i + 2:i + 6], 16) if re.fullmatch(r"[0-9a-fA-F]{4}", text[i + 2:i + 6]) else -1
            i += 6
            if 0xD800 <= high < 0xDC00 and text[i:i + 2] == "\\u":
                i += 6  # a surrogate pair: one character
        else:
            i += 2
    return i