"""Notebooks under the runtime companion: a notebook is run as the program, cell by cell.

``jaxlint confirm nb.ipynb`` runs the notebook's code cells top to bottom in one
Python process with the recorder, as a ``--run`` of a script: the cell order is
the program order, so a key used again two cells down, or a jitted function
defined in one cell and called in another, is judged by what the run did.

Parent side (no JAX): ``prepare`` writes the notebook's virtual module
(``jaxlint.parse.notebook``: the code cells joined, one boundary comment line between
cells, IPython syntax made Python of the same line count) to a private temporary
directory, moves the findings to its lines (``to_virtual``), and gives the command
that runs it; ``map_verdict`` brings a verdict's lines back to cells.

Child side: ``python -m jaxlint.runtime.notebooks VIRTUAL.py --first-cell N``
(under the recorder, through ``observe``) and ``run_cells`` (the worker's import of a
notebook).  Each cell is compiled on its own, under the virtual module's file name
and at its own lines, and executed in one ``__main__`` namespace, as a Jupyter
kernel does; a cell that raises is reported (its traceback, on stderr) and the next
cell runs, as ``jupyter nbconvert --execute --allow-errors`` does.  ``%time`` /
``%timeit`` lines and ``%%time`` / ``%%timeit`` cells run their code once
(``__jaxlint_timeit__``); shell escapes (``!pip install``) and other magics do not
run (they are ``pass`` in the virtual module).
"""

from __future__ import annotations

import dataclasses
import os
import re
import shutil
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Optional

from jaxlint.parse.notebook import TIME_MAGIC, TIMEIT_MAGIC, Notebook, NotebookError, is_notebook

_BOUNDARY_RE = re.compile(r"^# jaxlint: cell boundary (\d+)$")
_LINE_REF_RE = re.compile(r"\bline (\d+)\b")

__all__ = ["NotebookRun", "is_notebook", "prepare", "to_virtual", "map_verdict", "run_cells"]


@dataclass
class NotebookRun:
    """One notebook under ``confirm``/``bench``: its virtual module on disk."""

    notebook: Path  # the .ipynb, absolute
    display: str  # as the lint names it
    nb: Notebook
    virtual: Path  # the virtual module (resolved), in ``tmp``
    tmp: str
    command: str = ""  # the command that runs it under the recorder
    findings: list = field(default_factory=list)  # the lint's, on the virtual module's lines

    @property
    def first_cell(self) -> int:
        return self.nb.code_cells[0] if self.nb.code_cells else 1

    @property
    def label(self) -> str:
        return _LABEL.format(self.display)

    def cleanup(self) -> None:
        shutil.rmtree(self.tmp, ignore_errors=True)


_LABEL = "the notebook {}, cell by cell"


def run_named(command: str) -> str:
    """How a run line names a run: ``--run `CMD``` for a command, ``running the notebook
    nb.ipynb cell by cell`` for a notebook's run (the user gave no --run for it)."""
    head, tail = _LABEL.split("{}")
    if command.startswith(head) and command.endswith(tail):
        return f"running the notebook {command[len(head):-len(tail)]} cell by cell"
    return f"--run `{command}`"


def prepare(notebook: Path, display: str, findings: list) -> NotebookRun:
    """The virtual module of ``notebook`` written to a temporary directory (jaxlint
    never writes into the user's tree), and the findings moved to its lines.
    Raises NotebookError (one line) when the notebook cannot be read."""
    try:
        data = notebook.read_bytes()
    except OSError as exc:
        raise NotebookError(f"cannot read the notebook: {exc.strerror or exc}") from None
    nb = Notebook.from_bytes(data)
    tmp = tempfile.mkdtemp(prefix="jaxlint-notebook-")
    stem = "".join(c if c.isalnum() or c == "_" else "_" for c in notebook.stem) or "notebook"
    virtual = Path(tmp).resolve() / f"{stem}.py"
    virtual.write_text(nb.text, encoding="utf-8")
    run = NotebookRun(notebook=notebook, display=display, nb=nb, virtual=virtual, tmp=tmp)
    run.command = (f"python -m jaxlint.runtime.notebooks {_quote(str(virtual))} "
                   f"--first-cell {run.first_cell}")
    run.findings = [to_virtual(nb, f) for f in findings]
    return run


def _quote(text: str) -> str:
    import shlex

    return shlex.quote(text)


# ---- positions: cell -> virtual module, and back

def _virtual(nb: Notebook, cell: Optional[int], line: int, col: int) -> tuple[int, int]:
    """The 1-based virtual (line, column) of a cell's 1-based (line, column)."""
    if cell is None:
        return line, col
    v = nb.virtual_line(cell, line)
    if v is None:
        return line, col
    info = nb.lines[v - 1]
    if info is not None:
        if not info.magic and col - 1 >= info.col_from + info.delta:
            col -= info.delta
        col += info.indent
    return v, max(col, 1)


def to_virtual(nb: Notebook, f: Any) -> Any:
    """A finding (cell-relative, as the lint reports it) on the virtual module's lines."""
    line, col = _virtual(nb, f.cell, f.line, f.col)
    end_line, end_col = _virtual(nb, f.cell, f.end_line, f.end_col)
    fix = f.fix
    if fix is not None:
        edits = []
        for e in fix.edits:
            el, eco = _virtual(nb, e.cell, e.line, e.col)
            eel, eeco = _virtual(nb, e.cell, e.end_line, e.end_col)
            edits.append(dataclasses.replace(e, line=el, col=eco, end_line=eel, end_col=eeco,
                                             cell=None))
        fix = dataclasses.replace(fix, edits=tuple(edits))
    return dataclasses.replace(f, line=line, col=col, end_line=end_line, end_col=end_col,
                               cell=None, fix=fix)


def map_verdict(run: NotebookRun, verdict: Any, cell: Optional[int]) -> Any:
    """A verdict whose text and details speak of virtual lines and of the virtual
    module's run, told in the notebook's terms: ``line N`` of a cell (``of cell C``
    when the text names a line outside the finding's own cell: then every line names
    its cell), the notebook run instead of the command."""
    nb = run.nb

    def where(v: int) -> tuple[int, int]:
        c, line, _ = nb.position(v, 1)
        return c, line

    def text(s: str) -> str:
        s = s.replace(f"--run `{run.command}`", f"the run of {run.display}")
        s = s.replace("the --run ", "the notebook run ")
        s = re.sub(re.escape(str(run.virtual)) + r":(\d+)",  # a traceback's `path:line`
                   lambda m: "{}:cell {}:{}".format(run.display, *where(int(m.group(1)))), s)
        s = s.replace(str(run.virtual), run.display)

        # a line of the finding's own cell is `line N`, unless the text also names a line
        # of another cell: then each line names its cell (`line 2 of cell 2 ... line 1 of cell 3`)
        cells = {where(int(m.group(1)))[0] for m in _LINE_REF_RE.finditer(s)}
        own_only = cells <= {cell}

        def sub(m: re.Match) -> str:
            c, line = where(int(m.group(1)))
            return f"line {line}" if own_only else f"line {line} of cell {c}"

        return _LINE_REF_RE.sub(sub, s)

    def walk(value: Any, key: str = "") -> Any:
        if isinstance(value, str):
            return text(value)
        if isinstance(value, list):
            if key == "use_sites" and all(isinstance(x, int) for x in value):
                return [dict(zip(("cell", "line"), where(x))) for x in value]
            return [walk(x) for x in value]
        if isinstance(value, dict):
            out = {}
            for k, x in value.items():
                if k == "line" and isinstance(x, int):
                    out["cell"], out["line"] = where(x)
                else:
                    out[k] = walk(x, k)
            return out
        return value

    verdict.evidence = text(verdict.evidence)
    verdict.reason = text(verdict.reason)
    verdict.details = walk(verdict.details)
    if verdict.inputs is not None:
        verdict.inputs = [text(x) for x in verdict.inputs]
    return verdict


# ---- the child side: run the cells

def _timeit(fn: Any = None) -> Any:
    """``%time``/``%timeit EXPR`` (``__jaxlint_timeit__(lambda: EXPR)``): the code runs
    once and its value is returned; ``%%time``/``%%timeit`` cells
    (``with __jaxlint_timeit__():``): the body runs once."""
    if fn is None:
        import contextlib

        return contextlib.nullcontext()
    return fn()


def cells(text: str, first_cell: int = 1) -> list[tuple[int, int, str]]:
    """(cell number, first virtual line, source) of each code cell of a virtual module."""
    out: list[tuple[int, int, str]] = []
    number, start, lines = first_cell, 1, []
    for k, line in enumerate(text.splitlines(keepends=True), start=1):
        m = _BOUNDARY_RE.match(line.rstrip("\r\n"))
        if m:
            out.append((number, start, "".join(lines)))
            number, start, lines = int(m.group(1)), k + 1, []
            continue
        lines.append(line)
    out.append((number, start, "".join(lines)))
    return out


def run_cells(path: str, namespace: dict, first_cell: int = 1, source: Optional[str] = None,
              stream: Any = None) -> list[int]:
    """Execute the cells of the virtual module ``path`` (or ``source``) in ``namespace``
    one after the other; a cell that raises has its traceback written to ``stream``
    and the next one runs.  Returns the cells that raised."""
    import traceback

    stream = stream if stream is not None else sys.stderr
    if source is None:
        with open(path, encoding="utf-8") as fh:
            source = fh.read()
    namespace.setdefault(TIMEIT_MAGIC, _timeit)
    namespace.setdefault(TIME_MAGIC, _timeit)
    failed = []
    for number, start, body in cells(source, first_cell):
        try:
            code = compile("\n" * (start - 1) + body, path, "exec", dont_inherit=True)
            exec(code, namespace)
        except KeyboardInterrupt:
            raise
        except BaseException as exc:  # noqa: BLE001 - a cell's error (even SystemExit), as a kernel shows it
            failed.append(number)
            stream.write(f"jaxlint: cell {number} raised {exc.__class__.__name__}:\n")
            traceback.print_exception(type(exc), exc, exc.__traceback__.tb_next if
                                      exc.__traceback__ else None, file=stream)
            stream.flush()
    return failed


def main(argv: Optional[list[str]] = None) -> int:
    """``python -m jaxlint.runtime.notebooks VIRTUAL.py [--first-cell N]``: the cells as a
    kernel runs them, in a fresh ``__main__``; exit status 1 when a cell raised."""
    import types

    args = list(sys.argv[1:] if argv is None else argv)
    first = 1
    if "--first-cell" in args:
        k = args.index("--first-cell")
        first = int(args[k + 1])
        del args[k:k + 2]
    if len(args) != 1:
        sys.stderr.write("usage: python -m jaxlint.runtime.notebooks VIRTUAL.py "
                         "[--first-cell N]\n")
        return 2
    path = args[0]
    main_module = types.ModuleType("__main__")  # the kernel's namespace: no __file__
    sys.modules["__main__"] = main_module
    sys.argv = [path]
    if sys.path and sys.path[0] != os.getcwd():
        sys.path.insert(0, os.getcwd())  # the notebook's directory, as in Jupyter
    failed = run_cells(path, main_module.__dict__, first)
    sys.stdout.flush()
    if failed:
        sys.stderr.write(f"jaxlint: cell(s) {', '.join(map(str, failed))} raised\n")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
