"""Lines as CPython counts them: the one source of truth for positions.

CPython (its tokenizer and ``ast``) and libcst end a line at ``\\n``, ``\\r\\n``
or a lone ``\\r``, in any mix, and at nothing else.  ``str.splitlines()``
breaks at more (``\\x0b``, ``\\x0c``, ``\\x1c``-``\\x1e``, ``\\x85``,
``\\u2028``, ``\\u2029``) and ``split("\\n")`` at less: neither may be used
for a position.  Every conversion between (line, column) and a character
offset in jaxlint goes through this module: the positions of findings, fix
edits, ``# noqa`` lines, code frames, baselines, the fixer's own check and the
language server.

Lines are 1-based.  jaxlint's columns count characters (code points); CPython's
``col_offset`` counts UTF-8 bytes: ``LineIndex.char_col`` converts.
"""

from __future__ import annotations

import bisect
import re
from typing import Callable

LINE_BREAK = re.compile(r"\r\n|\r|\n")
LINE_BREAK_BYTES = re.compile(rb"\r\n|\r|\n")


def line_starts(text: str) -> list[int]:
    """The offset where each line starts (index 0 is line 1).  A text that ends
    with a line break has one more, empty, line after it."""
    return [0, *(m.end() for m in LINE_BREAK.finditer(text))]


def split_lines(text: str, keepends: bool = False) -> list[str]:
    """The lines of ``text``; no empty last line after a final line break."""
    if keepends:
        starts = line_starts(text)
        lines = [text[a:b] for a, b in zip(starts, starts[1:])]
        if starts[-1] < len(text):
            lines.append(text[starts[-1]:])
        return lines
    lines = LINE_BREAK.split(text)
    if lines and lines[-1] == "":
        lines.pop()
    return lines


def with_newlines(text: str) -> str:
    """``text`` with every line break written ``\\n``: the same lines and
    columns, for tools that split at ``\\n`` only (``tokenize`` on a StringIO)."""
    return LINE_BREAK.sub("\n", text) if "\r" in text else text


def readline(text: str) -> Callable[[], str]:
    """A ``readline`` for ``tokenize.generate_tokens``: CPython's lines, each
    ending ``\\n``, then ""."""
    lines = iter(split_lines(with_newlines(text), keepends=True))
    return lambda: next(lines, "")


class LineIndex:
    """Converts between (line, column) and offsets in one text."""

    __slots__ = ("text", "starts")

    def __init__(self, text: str) -> None:
        self.text = text
        self.starts = line_starts(text)

    @property
    def count(self) -> int:
        return len(self.starts)

    def offset(self, line: int, col: int) -> int:
        """The offset of 1-based ``line`` and 0-based character ``col``, clamped
        to the text (a column past the line's end stays on the line's end)."""
        if line < 1:
            return 0
        if line > len(self.starts):
            return len(self.text)
        start = self.starts[line - 1]
        return min(start + max(col, 0), self.line_end(line))

    def position(self, offset: int) -> tuple[int, int]:
        """(1-based line, 0-based character column) of an offset."""
        offset = max(0, min(offset, len(self.text)))
        i = bisect.bisect_right(self.starts, offset) - 1
        return i + 1, offset - self.starts[i]

    def line_end(self, line: int) -> int:
        """The offset where ``line``'s text ends (before its line break)."""
        if line >= len(self.starts):
            return len(self.text)
        end = self.starts[line]
        text = self.text
        if end > 0 and text[end - 1] == "\n":
            end -= 1
            if end > 0 and text[end - 1] == "\r":
                end -= 1
        elif end > 0 and text[end - 1] == "\r":
            end -= 1
        return end

    def line(self, line: int) -> str:
        """The text of 1-based ``line``, without its line break ("" past the end)."""
        if not 1 <= line <= len(self.starts):
            return ""
        return self.text[self.starts[line - 1]:self.line_end(line)]

    def char_col(self, line: int, byte_col: int) -> int:
        """The character column of CPython's ``col_offset`` (UTF-8 bytes) on ``line``."""
        row = self.line(line)
        if row.isascii():
            return byte_col
        return len(row.encode("utf-8", "surrogatepass")[:byte_col].decode("utf-8", "replace"))

    def byte_col(self, line: int, col: int) -> int:
        """CPython's ``col_offset`` (UTF-8 bytes) of a character column on ``line``."""
        row = self.line(line)
        if row.isascii():
            return col
        return len(row[:max(col, 0)].encode("utf-8", "surrogatepass"))

    def ast_offset(self, line: int, byte_col: int) -> int:
        """The offset of CPython's (``lineno``, ``col_offset``)."""
        if line > len(self.starts):
            return len(self.text)
        return self.offset(line, self.char_col(line, byte_col))
