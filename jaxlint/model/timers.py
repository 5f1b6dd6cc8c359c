"""Context managers of the file that time the block they wrap: a clock read on entry and
another on exit, with nothing in between that could wait for JAX work.

``with Timer() as t: y = f(x)`` where ``Timer.__enter__`` reads ``time.perf_counter()``
and ``Timer.__exit__`` reads it again measures the block like ``t0 = perf_counter()``
... ``perf_counter() - t0`` does: the exit's read closes the interval (JAX505 reads it
like a second clock read after the block).  Two spellings are read, both defined in the
file (a manager of another module, or of a library, is unknown: it may wait, as CLU's
``report_progress.timed`` does):

* a class whose ``__enter__`` and ``__exit__`` (its own, or of a base of the file) each
  read a clock;
* a ``@contextlib.contextmanager`` generator that reads a clock before its one ``yield``
  and again after it, in its own statements.

The exit side (``__exit__``, or the statements after the ``yield``) may only read clocks,
do arithmetic, store and log (``print``, ``logging``, ``str``/``round``/``float`` of a
number, ``append``...): any other call might wait for the work (``block_until_ready``
in the exit, a helper of unknown effect), and then the manager is not a bare timer.
The manager is read, never walked: one look at the class or function, no project pass.
"""

from __future__ import annotations

from typing import Callable, Optional

import libcst as cst

from jaxlint.model.walk import descendants, dotted_name

# clock reads (the stop of a timed interval)
CLOCKS = frozenset(
    {"time.time", "time.perf_counter", "time.monotonic", "time.process_time", "time.time_ns",
     "time.perf_counter_ns", "time.monotonic_ns", "timeit.default_timer"}
)
# calls an exit side may make without waiting for JAX work
_QUIET_BUILTINS = frozenset({"print", "str", "repr", "round", "float", "int", "len", "abs", "max", "min",
                             "sum", "format", "isinstance", "hasattr", "getattr", "setattr"})
_QUIET_METHODS = frozenset({"append", "extend", "pop", "insert", "update", "setdefault", "get",
                            "format", "info", "debug", "warning", "log", "write", "flush"})
_CONTEXTMANAGERS = frozenset({"contextlib.contextmanager"})


def _clock_calls(nodes, qualname: Callable[[cst.CSTNode], Optional[str]]) -> list[cst.Call]:
    return [d for n in nodes for d in (n, *descendants(n))
            if type(d) is cst.Call and qualname(d.func) in CLOCKS]


# builtins that read an array's value (a JAX array's waits for it): quiet only once the
# clock has been read (formatting the elapsed time), not before (`float(self.loss)` first)
_VALUE_READERS = frozenset({"print", "str", "repr", "round", "float", "int", "abs", "max", "min",
                            "sum", "format"})


def _quiet(nodes, qualname: Callable[[cst.CSTNode], Optional[str]]) -> bool:
    """Do the statements ``nodes`` only read clocks, compute, store and log, reading no
    value before the last clock read (``float(x)`` of a JAX array waits for it)?"""
    found = [d for n in nodes for d in (n, *descendants(n))]
    clocks = [i for i, d in enumerate(found) if type(d) is cst.Call and qualname(d.func) in CLOCKS]
    last_clock = clocks[-1] if clocks else -1
    for i, d in enumerate(found):
        t = type(d)
        if t in (cst.Yield, cst.Await, cst.With, cst.FunctionDef, cst.Lambda):
            return False
        if t is not cst.Call:
            continue
        func = d.func
        q = qualname(func)
        if q in CLOCKS or (q is not None and q.startswith("logging.")):
            continue
        if type(func) is cst.Name and func.value in _QUIET_BUILTINS and q is None:
            if func.value in _VALUE_READERS and i < last_clock and not any(
                    type(x) is cst.Call and qualname(x.func) in CLOCKS for x in descendants(d)):
                return False  # it may wait for a result before the clock stops
            continue
        if type(func) is cst.Attribute and func.attr.value in _QUIET_METHODS:
            continue
        return False
    return True


def _body(fn: cst.FunctionDef) -> list:
    body = fn.body
    return list(body.body) if isinstance(body, cst.IndentedBlock) else [body]


def _timer_class(cls, qualname) -> bool:
    enter, leave = cls.method("__enter__"), cls.method("__exit__")
    if enter is None or leave is None or type(enter.node) is not cst.FunctionDef \
            or type(leave.node) is not cst.FunctionDef:
        return False
    if not _clock_calls(_body(enter.node), qualname):
        return False
    exit_body = _body(leave.node)
    return bool(_clock_calls(exit_body, qualname)) and _quiet(exit_body, qualname)


def _timer_generator(fn: cst.FunctionDef, qualname) -> bool:
    if not any(qualname(d.decorator) in _CONTEXTMANAGERS for d in fn.decorators):
        return False
    stmts = _body(fn)
    at = [i for i, st in enumerate(stmts)
          if isinstance(st, cst.SimpleStatementLine) and len(st.body) == 1
          and isinstance(st.body[0], cst.Expr) and isinstance(st.body[0].value, cst.Yield)]
    if len(at) != 1 or any(type(d) is cst.Yield for st in stmts[:at[0]] + stmts[at[0] + 1:]
                           for d in descendants(st)):
        return False  # one bare `yield` statement in the function's own block
    before, after = stmts[:at[0]], stmts[at[0] + 1:]
    return bool(_clock_calls(before, qualname)) and bool(_clock_calls(after, qualname)) \
        and _quiet(after, qualname)


def timing_manager(index, qualname: Callable[[cst.CSTNode], Optional[str]],
                   item: cst.BaseExpression) -> Optional[str]:
    """The manager (as written: ``Timer``, ``timed``, ``timing.stopwatch``) when ``item``,
    the expression of a ``with`` item, builds a context manager of this file, or of
    another module of the project (the fact ``timers``: ``from pkg.timing import Timer``,
    ``pkg.timing.stopwatch``), that reads a clock on entering and again on leaving the
    block, waiting for nothing; else None."""
    if type(item) is not cst.Call or any(a.star for a in item.args):
        return None
    written = dotted_name(item.func)
    if written is None:
        return None
    module = index.module_unit
    imported = index.imported_timers
    if imported and written in imported and not module.bindings.get(written.split(".", 1)[0]) \
            and written.split(".", 1)[0] not in module.defs:
        return written
    if type(item.func) is not cst.Name:
        return None
    name = item.func.value
    if any(value is not None for _, value in module.bindings.get(name, ())):
        return None  # also bound to a value at module level
    classes = [c for c in index.classes if c.name == name and c.scope is module]
    if classes:
        return name if len(classes) == 1 and _timer_class(classes[0], qualname) else None
    unit = module.defs.get(name)
    if unit is not None and type(unit.node) is cst.FunctionDef \
            and len(module.bindings.get(name, ())) == 1:
        return name if _timer_generator(unit.node, qualname) else None
    return None


def module_timers(index, qualname: Callable[[cst.CSTNode], Optional[str]]) -> list[str]:
    """The module-level classes and functions of this file that are timing context
    managers (``timing_manager``): told to the modules that import them."""
    out = []
    module = index.module_unit
    for c in index.classes:
        if c.scope is module and c.method("__exit__") is not None:
            call = cst.Call(func=cst.Name(c.name))
            if timing_manager(index, qualname, call) == c.name:
                out.append(c.name)
    for name, unit in module.defs.items():
        if type(unit.node) is cst.FunctionDef and unit.node.decorators:
            if timing_manager(index, qualname, cst.Call(func=cst.Name(name))) == name:
                out.append(name)
    return sorted(set(out))
