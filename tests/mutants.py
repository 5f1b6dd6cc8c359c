"""Mutations of real source files, for the property tests and ``make fuzz``.

A mutant is a file with a few random edits: a span deleted, duplicated or
moved, a line re-indented, or a fragment that matters to parsers inserted
(brackets, colons, indentation, string quotes, NUL bytes, a BOM, JAX calls,
deep nesting).  ``mutate`` is deterministic for a given ``random.Random``.
"""

from __future__ import annotations

import ast
import random
import re
import warnings

FRAGMENTS = (
    "(", ")", "[", "]", "{", "}", ":", ",", "\n", "\r\n", "\r", "    ", "\t", "\\\n", "'", '"', '"""',
    "#", "\0", "\ufeff", "é", "=", " = ", "lambda ", "not ", "await ", "yield ", "*", "**", "@",
    "jnp.", "jax.", "x[0] = 1", ".at[0].set(1)", "jax.jit", "@jax.jit\n", "jnp.zeros(3)", "float(x)",
    "if x > 0:\n    ", "for i in range(3):\n    ", "def f(x):\n    ", "return ", "global x\n",
    "import jax\n", "import jax.numpy as jnp\n", "(" * 40, ")" * 40, "-" * 30, " + a" * 20, ".sum()" * 10,
)


STATEMENTS = (
    "x = jnp.zeros(3)", "x[0] = 1", "x.at[0].set(1)", "y = float(x)", "if x > 0:\n{i}    x = -x",
    "for i in range(3):\n{i}    x[i] = i", "key = jax.random.PRNGKey(0)", "a = jax.random.normal(key, (3,))",
    "b = jax.random.normal(key, (3,))", "@jax.jit\n{i}def g(x):\n{i}    return x.sum()", "print(x)",
    "x = jnp.where(x > 0, x, 0)", "return x", "global x", "del x", "pass", "import jax",
    "import jax.numpy as jnp", "y = np.asarray(x)", "z = int(x.sum())", "while x.any():\n{i}    x = x - 1",
    # deprecated APIs: a safe fix for the mutants of files that import jax
    "w = jax.tree_map(f, x)", "v = jax.tree_util.tree_map(f, x)\n{i}jax.tree_leaves(v)",
)


def _line_op(text: str, rng: random.Random) -> str:
    """Edits that keep most files valid: whole lines duplicated, deleted or inserted."""
    lines = text.split("\n")
    k = rng.randrange(len(lines))
    op = rng.randrange(3)
    if op == 0:
        lines.insert(k, lines[k])
    elif op == 1 and len(lines) > 1:
        del lines[k]
    else:
        indent = lines[k][: len(lines[k]) - len(lines[k].lstrip())]
        lines.insert(k, indent + rng.choice(STATEMENTS).replace("{i}", indent))
    return "\n".join(lines)


def mutate(text: str, rng: random.Random, edits: int = 3) -> str:
    for _ in range(edits):
        if rng.random() < 0.6:
            text = _line_op(text, rng)
            continue
        n = len(text)
        op = rng.randrange(6)
        i = rng.randrange(n + 1)
        j = min(n, i + rng.randrange(1, 80))
        if op == 0:  # delete a span
            text = text[:i] + text[j:]
        elif op == 1:  # duplicate a span
            text = text[:j] + text[i:j] + text[j:]
        elif op == 2:  # move a span elsewhere
            piece, rest = text[i:j], text[:i] + text[j:]
            k = rng.randrange(len(rest) + 1)
            text = rest[:k] + piece + rest[k:]
        elif op == 3:  # re-indent one line
            lines = text.split("\n")
            k = rng.randrange(len(lines))
            lines[k] = rng.choice(("", " ", "    ", "        ", "\t")) + lines[k].lstrip()
            text = "\n".join(lines)
        else:  # insert a fragment
            text = text[:i] + rng.choice(FRAGMENTS) + text[i:]
    return text


def encode(text: str, rng: random.Random) -> bytes:
    """Usually UTF-8; sometimes with a BOM, UTF-16/32 or invalid bytes."""
    k = rng.randrange(20)
    try:
        if k == 0:
            return text.encode("utf-16")
        if k == 1:
            return text.encode("utf-32")
        if k == 2:
            return b"\xef\xbb\xbf" + text.encode("utf-8")
        if k == 3:
            data = text.encode("utf-8")
            i = rng.randrange(len(data) + 1)
            return data[:i] + b"\xff" + data[i:]
        return text.encode("utf-8", "surrogatepass")
    except UnicodeEncodeError:
        return text.encode("utf-8", "replace")


# CPython as the oracle, independent of jaxlint's own check (which the tests compare with it)
def refused_by_python(text: str) -> bool:
    """Does CPython's parser refuse ``text``?"""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            compile(text, "m.py", "exec", flags=ast.PyCF_ONLY_AST, dont_inherit=True)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return True
    return False


def compiles(text: str) -> bool:
    """Does ``text`` compile to bytecode too (`return` outside a function parses but does not)?"""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            compile(text, "m.py", "exec", dont_inherit=True)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return False
    return True


# ----------------------------------------------------------------------------- line endings

ENDING_STYLES = ("\r", "\r\n", "mixed")
_BREAK = re.compile(r"\r\n|\r|\n")  # CPython's line breaks (written here, not taken from jaxlint)


def rewrite_endings(text: str, rng: random.Random, style: str | None = None) -> str:
    """``text`` with every line break rewritten: all ``\\r``, all ``\\r\\n``, or a
    random mix of the three (``style`` "mixed"), the lines themselves unchanged
    (an empty line after a lone ``\\r`` never ends in ``\\n``: the two would be
    one ``\\r\\n``).  Breaks inside strings and after a backslash are rewritten too."""
    style = style or rng.choice(ENDING_STYLES)
    lines = _BREAK.split(text)
    out = [lines[0]]
    prev = ""
    for line_before, line in zip(lines, lines[1:]):
        end = style if style != "mixed" else rng.choice(("\n", "\r\n", "\r"))
        if end == "\n" and prev == "\r" and line_before == "":
            end = "\r\n"
        out.append(end)
        out.append(line)
        prev = end
    return "".join(out)


def with_lf(text: str) -> str:
    """The LF twin of ``text``: the same lines and columns, every break ``\\n``."""
    return _BREAK.sub("\n", text)


def _syntax_error_at(text: str) -> tuple[int, int] | None:
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            compile(text, "<mutant>", "exec", flags=ast.PyCF_ONLY_AST, dont_inherit=True)
    except SyntaxError as exc:
        return (exc.lineno, max(exc.offset or 1, 1)) if exc.lineno else None
    except (ValueError, RecursionError, MemoryError):
        return None
    return None


def _ends(text: str) -> list[tuple[str, str]]:
    parts = _BREAK.split(text)
    breaks = _BREAK.findall(text)
    return list(zip(parts, breaks + [""]))


def ending_problems(text: str, settings, fix: bool = True, findings=None) -> list[str]:
    """What differs between ``text`` and its LF twin (``with_lf``), CPython's
    lines being the same in both: the findings' codes and positions, and (with
    ``fix``, for text that compiles) the fixed text up to its line endings; the
    fix must keep every line ending of the lines it leaves unchanged.
    ``findings``: ``text``'s findings when already known (as a run gave them)."""
    import difflib

    from jaxlint.fix.fixer import fix_text
    from jaxlint.engine.fixes import fixable
    from jaxlint.lint.linter import lint_source

    twin = with_lf(text)
    problems = []
    mine = lint_source(text, "m.py", settings).findings if findings is None else findings
    theirs = lint_source(twin, "m.py", settings).findings
    # a syntax error is where CPython puts it in this very text (CPython's own position
    # may differ from the twin's: the end of a file ending in CRLF is on the next line)
    key = sorted((f.code, f.line, f.col, f.end_line, f.end_col) for f in mine if f.code != "JAX001")
    twin_key = sorted((f.code, f.line, f.col, f.end_line, f.end_col) for f in theirs if f.code != "JAX001")
    if key != twin_key:
        diff = sorted(set(key) ^ set(twin_key))[:3]
        problems.append(f"wrong position: findings differ from the LF twin's ({diff})")
    syntax = [(f.line, f.col) for f in mine if f.code == "JAX001"]
    if syntax:
        where = _syntax_error_at(text)
        if where is not None and syntax != [where]:
            problems.append(f"wrong position: JAX001 at {syntax} where CPython says {where}")
    if not fix or not compiles(text) or not any(fixable(f, True) for f in mine):
        return problems
    fixed = fix_text(text, "m.py", settings, unsafe=True)
    fixed_twin = fix_text(twin, "m.py", settings, unsafe=True)
    if fixed.errors:
        problems.append(f"wrong edit: {fixed.errors[0]}")
    if with_lf(fixed.text) != fixed_twin.text:
        problems.append("wrong edit: the fixed text differs from the LF twin's fixed text")
    elif fixed.changed:
        old, new = _ends(text), _ends(fixed.text)
        matcher = difflib.SequenceMatcher(None, [t for t, _ in old], [t for t, _ in new], autojunk=False)
        for tag, i1, i2, j1, j2 in matcher.get_opcodes():
            if tag == "equal" and [e for _, e in old[i1:i2 - 1]] != [e for _, e in new[j1:j2 - 1]]:
                problems.append("wrong edit: a line the fix left alone lost its line ending")
                break
    return problems
