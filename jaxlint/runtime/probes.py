"""The probes: JAX's own checkers, active inside ``jaxlint observe --run CMD``.

``observe`` starts CMD with a ``sitecustomize`` shim on ``PYTHONPATH`` and
``JAXLINT_OBSERVE`` naming a job file (the events file, the user's PATHS).  The
checkers are switched on through JAX's own configuration, in the environment the
parent gives the command (``JAX_DEBUG_NANS``, ``JAX_EXPLAIN_CACHE_MISSES``;
``JAX_CHECK_TRACER_LEAKS`` with ``--check-leaks``), so that every Python process of the
command has them from JAX's import on; ``jax_debug_key_reuse`` is switched on by the
probes when the program first hands a typed key to ``jax.random`` (with ``key_reuse``:
``observe``), since it makes every eager operation and jit call pay for the check.
``install()`` (called by the shim) waits for ``import jax`` to finish, then attaches
the listeners:

* a ``logging`` handler on JAX's ``TRACING CACHE MISS`` records (explain_cache_misses):
  a ``miss`` event per (re)trace of a jitted function, with its call site, where the
  function is defined and why the cache missed (never seen, a fresh function object
  of the same definition, a changed static argument, changed argument types);
* ``sys.excepthook``/``threading.excepthook``: an exception JAX raises for a sharp bit
  (a checker's error: ``KeyReuseError``, the NaN checker's ``FloatingPointError``,
  the leak checker's ``Leaked trace``; or a tracer error, a deleted donated array, a
  removed API) that ends the run, at the user's innermost line;
* ``warnings.warn``: JAX's float64-truncation warning and its deprecation warnings;
* ``Tracer.__repr__``: a tracer turned into text by the user's own line (``print``,
  an f-string) while JAX traces;
* ``ArrayImpl._value``: a device array copied to the host (``float(x)``,
  ``np.asarray(x)``, ``x.item()``...), counted per line of the user's code;
* with ``host_transfers`` (``observe``): JAX's transfer guard at ``log`` for
  host-to-device copies, its C++ log lines read in the writing thread (``clog``), each
  copy counted at the user's line;
* ``jax.random``'s functions: a raw ``uint32`` key (``PRNGKey``) array consumed twice
  outside tracing (JAX's own checker, ``jax_debug_key_reuse``, follows typed keys only).

Every event names the first frame inside PATHS (the user's line, not JAX's), with the
column of the call running there.  Nothing is written but the events file.
"""

from __future__ import annotations

import atexit
import builtins
import json
import os
import sys
import threading
import time
import weakref
from typing import Any, Optional

from jaxlint.runtime.recorder import CHAIN_SHADOWED

ENV = "JAXLINT_OBSERVE"

# syncs (a device array copied to the host after new device work) at one line before a
# JAX507 event is written (sightings.py decides what is reported)
D2H_SYNCS = 10

# the flags observe sets in the command's environment (JAX reads them at import)
JAX_FLAGS = {
    "JAX_DEBUG_NANS": "1",
    "JAX_EXPLAIN_CACHE_MISSES": "1",
}
# opt-in (``--check-leaks``): with it JAX compiles every eager operation afresh (a
# training loop that slices its batches ran 9x slower), so it is not on by default
LEAK_FLAGS = {"JAX_CHECK_TRACER_LEAKS": "1"}

# jax.random functions that consume their key (fold_in does not: JAX's key-reuse rules)
CONSUMERS = ("normal", "uniform", "split", "bernoulli", "randint", "choice", "permutation",
             "categorical", "gumbel", "truncated_normal", "exponential", "gamma", "beta",
             "poisson", "bits", "laplace", "logistic", "cauchy", "dirichlet",
             "multivariate_normal", "rademacher", "orthogonal", "ball", "maxwell", "t",
             "chisquare", "binomial", "geometric", "loggamma", "pareto", "weibull_min",
             "triangular", "wald", "double_sided_maxwell", "generalized_normal")


def _positions(code: Any, lasti: int, line: int) -> tuple[int, int, int]:
    """(line, column, end column) of the instruction at ``lasti`` (columns 0-based); the
    line's first and last character where it is not known (a traceback JAX rebuilt from
    its own source information has no instruction offsets)."""
    import linecache

    text = linecache.getline(code.co_filename, line).rstrip()
    try:
        for i, pos in enumerate(code.co_positions()):
            if i == lasti // 2:
                start, _end, col, end_col = pos
                if start == line and col is not None:
                    return (start,) + _test_span(text, col, end_col if end_col is not None
                                                 and _end == start else col)
                break
    except (AttributeError, ValueError):
        pass
    return (line,) + _test_span(text, len(text) - len(text.lstrip()), len(text))


_TEST_KEYWORDS = ("if", "elif", "while", "assert")


def _test_span(text: str, col: int, end_col: int) -> tuple[int, int]:
    """A span that starts at an ``if``/``elif``/``while``/``assert`` keyword (Python gives
    the whole statement to the jump that converts its test to a bool) narrowed to the
    test, the expression the static rules point at; any other span as it is."""
    import ast

    head = text[col:]
    word = head.split(None, 1)[0] if head.strip() else ""
    word = word.rstrip(":")
    if word not in _TEST_KEYWORDS or text[:col].strip():
        return col, end_col
    source = head if word == "assert" else head.replace(word, "if", 1)
    if word != "assert":
        source = source + "\n    pass"
    try:
        stmt = ast.parse(source).body[0]
    except (SyntaxError, IndexError, ValueError):
        return col, end_col
    test = getattr(stmt, "test", None)
    if test is None or test.end_lineno != 1 or test.end_col_offset is None:
        return col, end_col
    shift = 0 if word in ("assert", "if") else len(word) - 2
    # ast counts UTF-8 bytes; the probes' columns count the same (co_positions does)
    return col + test.col_offset + shift, col + test.end_col_offset + shift


class Probes:
    def __init__(self, job: dict) -> None:
        self.events = job["events"]
        self.paths = tuple(os.path.realpath(p) for p in job.get("paths") or [os.getcwd()])
        self.options = job.get("options") or {}
        self.lock = threading.RLock()
        self.user: dict[str, Optional[str]] = {}  # co_filename -> its real path, or None
        self.counts: dict[tuple, list] = {}  # (kind, file, line) -> [count, event]
        self.keys: dict[int, tuple[Any, str, int, str]] = {}  # id -> (ref, file, line, fn)
        self.h2d: dict[tuple, list] = {}  # (file, line) -> [count, array avals, scalars, where]
        self.h2d_threshold = int(self.options.get("transfers", 3))
        # device-to-host copies per (file, line): copies, syncs (after new device work),
        # gaps (dispatches between syncs); reported from `syncs` syncs on (sightings.py)
        self.d2h: dict[tuple, dict] = {}
        self.d2h_threshold = int(self.options.get("syncs", D2H_SYNCS))
        self.dispatches = 0  # jit calls and eager operations (the post hook counts them)
        self.counting = False  # whether the post hook is in place
        self.attached = False
        self.on_attach: list = []  # called once JAX is imported (the facts recorder's hook)
        self.inside = threading.local()
        from jaxlint.runtime.recorder import user_path

        self._user_path = user_path

    # -- where: the user's frames

    def user_file(self, filename: str) -> Optional[str]:
        found = self.user.get(filename, False)
        if found is False:
            found = self.user[filename] = self._user_path(filename, self.paths)
        return found  # type: ignore[return-value]

    def user_frame(self, frame: Any) -> Optional[tuple[str, int, int, int, str]]:
        """The first frame inside PATHS from ``frame`` outwards: (file, line, col,
        end col, function)."""
        while frame is not None:
            real = self.user_file(frame.f_code.co_filename)
            if real is not None:
                line, col, end = _positions(frame.f_code, frame.f_lasti, frame.f_lineno)
                return real, line, col, end, frame.f_code.co_qualname \
                    if hasattr(frame.f_code, "co_qualname") else frame.f_code.co_name
            frame = frame.f_back
        return None

    def user_tb(self, tb: Any) -> Optional[tuple[str, int, int, int, str]]:
        """The innermost traceback entry inside PATHS."""
        found = None
        while tb is not None:
            code = tb.tb_frame.f_code
            real = self.user_file(code.co_filename)
            if real is not None:
                line, col, end = _positions(code, tb.tb_lasti, tb.tb_lineno)
                found = (real, line, col, end, getattr(code, "co_qualname", code.co_name))
            tb = tb.tb_next
        return found

    def user_tb_lines(self, tb: Any) -> list[list]:
        """Every traceback entry inside PATHS: [file, line]."""
        out = []
        while tb is not None:
            real = self.user_file(tb.tb_frame.f_code.co_filename)
            if real is not None:
                out.append([real, tb.tb_lineno])
            tb = tb.tb_next
        return out

    # -- events

    def emit(self, **event: Any) -> None:
        line = json.dumps(dict(event, pid=os.getpid()), default=str) + "\n"
        with self.lock:
            try:
                with open(self.events, "a", encoding="utf-8") as fh:
                    fh.write(line)
            except OSError:
                pass

    def hit(self, kind: str, where: tuple, **event: Any) -> None:
        if _in_recorder_checks():  # confirm's own checks at exit: not the user's run
            return
        file, line, col, end, function = where
        self.emit(event="hit", kind=kind, file=file, line=line, col=col, end_col=end,
                  function=function, **event)

    def count(self, kind: str, where: tuple, threshold: int, **event: Any) -> None:
        """Counted per line; written at the ``threshold``-th time and at exit."""
        key = (kind, where[0], where[1])
        with self.lock:
            entry = self.counts.setdefault(key, [0, None, where, threshold])
            entry[0] += 1
            entry[1] = event
            if entry[0] == threshold:
                self.hit(kind, where, count=entry[0], **event)

    def flush(self) -> None:
        """At exit: the final count of every line that reached its threshold."""
        with self.lock:
            for (kind, _f, _l), (n, event, where, threshold) in self.counts.items():
                if n >= threshold:
                    self.hit(kind, where, count=n, final=True, **event)
            self.counts.clear()
            for entry in self.h2d.values():
                if entry[0] >= self.h2d_threshold:
                    self._h2d_hit(entry, final=True)
            self.h2d.clear()
            for entry in self.d2h.values():
                if entry["syncs"] >= self.d2h_threshold:
                    self._d2h_hit(entry, final=True)
            self.d2h.clear()

    # -- installing: after `import jax` has finished

    def maybe_attach(self) -> None:
        if self.attached:
            return
        jax = sys.modules.get("jax")
        if jax is None or not hasattr(jax, "jit") or "jax.random" not in sys.modules:
            return
        self.attached = True
        for attach in (self._logging, self._exceptions, self._warnings, self._tracer_text,
                       self._dispatches, self._transfers, self._host_transfers, self._raw_keys, self._typed_keys):
            try:
                attach()
            except Exception as exc:  # noqa: BLE001 - never break the user's program
                sys.stderr.write(f"jaxlint: observe could not attach {attach.__name__}: "
                                 f"{exc!r}\n")
        for attach in self.on_attach:
            try:
                attach()
            except Exception as exc:  # noqa: BLE001 - never break the user's program
                sys.stderr.write(f"jaxlint: observe could not attach {attach!r}: {exc!r}\n")
        atexit.register(self.flush)
        from jaxlint.runtime import clog

        atexit.register(clog.remove)  # last in, first out: after the flush, before shutdown

    # recompilations: JAX's explain_cache_misses records

    def _logging(self) -> None:
        import logging

        probes = self

        class Misses(logging.Handler):
            def emit(self, record: logging.LogRecord) -> None:
                try:
                    message = record.getMessage()
                    if message.startswith("TRACING CACHE MISS"):
                        probes.on_miss(message)
                except Exception:  # noqa: BLE001
                    pass

        handler = Misses(level=logging.WARNING)
        logging.getLogger("jax").addHandler(handler)

    def on_miss(self, message: str) -> None:
        import re

        where = self.user_frame(sys._getframe(2))
        if where is None:
            return
        m = re.search(r"(?:for\s+|never seen function:\n\s+)(\S+)(?: id=\d+)? defined at (\S+):(\d+)",
                      message)
        if m is None:
            return
        name, dfile, dline = m.group(1), m.group(2), int(m.group(3))
        if "never seen function" in message:
            reason = "fresh" if "seen another function defined on the same line" in message \
                else "first"
            detail = ""
        elif "different input pytree" in message and "Static(" in message:
            reason = "static"
            s = re.search(r"at input path (\S+), now .*?Static\(val=(.*?)\) and before .*?"
                          r"Static\(val=(.*?)\)", message, re.S)
            detail = json.dumps([s.group(1), s.group(2)[:80], s.group(3)[:80]]) if s else ""
        elif "different input types" in message:
            reason = "weak_type" if "weak_type" in message else "types"
            s = re.search(r"\* at (.*?), now (\S+?) and before (\S+?)(?:https|\n|$)", message)
            detail = json.dumps([s.group(1), s.group(2)[:80], s.group(3)[:80]]) if s else ""
        else:
            reason, detail = "other", message.splitlines()[-1].strip()[:200]
        self.hit("miss", where, name=name, defined=f"{os.path.realpath(dfile)}:{dline}",
                 reason=reason, detail=detail, traced_for=_traced_for(sys._getframe(1)))

    # exceptions that end the run

    def _exceptions(self) -> None:
        previous = sys.excepthook

        def hook(cls: Any, exc: Any, tb: Any) -> None:
            self.on_exception(exc)
            previous(cls, exc, tb)

        sys.excepthook = hook
        previous_thread = threading.excepthook

        def thread_hook(args: Any) -> None:
            if args.exc_value is not None:
                self.on_exception(args.exc_value)
            previous_thread(args)

        threading.excepthook = thread_hook

    def on_exception(self, exc: BaseException) -> None:
        try:
            where = None
            cause = exc.__cause__
            if cause is not None and type(cause).__name__ == "JaxStackTraceBeforeTransformation":
                where = self.user_tb(cause.__traceback__)
            if where is None:
                where = self.user_tb(exc.__traceback__)
            if where is None:
                return
            full = str(exc)
            text = [t.strip() for t in full.strip().splitlines() if t.strip()]
            cls = type(exc)
            import re

            traced = re.search(r"while tracing the function (\S+) at (\S+):(\d+)", full)
            self.hit("exception", where, exception=f"{cls.__module__}.{cls.__qualname__}"
                     .replace("builtins.", ""), classes=[c.__name__ for c in cls.__mro__],
                     traced=[traced.group(1), os.path.realpath(traced.group(2)),
                             int(traced.group(3))] if traced else None,
                     stack=self.user_tb_lines(exc.__traceback__) if traced else None,
                     message=(" ".join(text[:2]) if text and text[0].endswith(":")
                              else text[0] if text else "")[:300])
        except Exception:  # noqa: BLE001
            pass

    # warnings: float64 truncation, deprecations

    def _warnings(self) -> None:
        import warnings

        original = warnings.warn
        probes = self

        def warn(message: Any, category: Any = None, stacklevel: int = 1,
                 source: Any = None, **kw: Any) -> None:
            try:
                probes.on_warning(message, category)
            except Exception:  # noqa: BLE001
                pass
            return original(message, category, stacklevel + 1, source, **kw)

        warn.__wrapped__ = original  # type: ignore[attr-defined]
        warnings.warn = warn

    def on_warning(self, message: Any, category: Any) -> None:
        caller = sys._getframe(2)
        module = caller.f_globals.get("__name__", "")
        if not (module == "jax" or module.startswith(("jax.", "jaxlib."))):
            return
        text = str(message)
        if isinstance(message, Warning):
            category = type(message)
        if "Explicitly requested dtype" in text and "truncated" in text:
            kind = "float64"
        elif category is not None and issubclass(category, (DeprecationWarning, FutureWarning)):
            kind = "deprecation"
        else:
            return
        where = self.user_frame(caller)
        if where is not None:
            self.count(kind, where, 1, message=text.splitlines()[0][:300])

    # tracers printed by the user's own line

    def _tracer_text(self) -> None:
        from jax._src import core

        original = core.Tracer.__repr__
        probes = self

        def __repr__(tracer: Any) -> str:
            try:
                frame = sys._getframe(1)
                if probes.user_file(frame.f_code.co_filename) is not None:
                    where = probes.user_frame(frame)
                    if where is not None:
                        probes.count("tracer-text", where, 1,
                                     aval=str(getattr(tracer, "aval", ""))[:80],
                                     via=_text_via(frame))
            except Exception:  # noqa: BLE001
                pass
            return original(tracer)

        core.Tracer.__repr__ = __repr__

    # every dispatch (a jit call, an eager operation) and the NaN/Inf check of its outputs

    def _dispatches(self) -> None:
        """JAX's C++ jit (eager operations included: each is a jitted primitive) calls a
        Python post hook after every call while the NaN/Inf checker is on
        (``api._nan_check_posthook``): it flattens the outputs, builds each one's
        ``addressable_shards`` and checks each shard with ``np.isnan(np.asarray(...))``.
        Replaced by one that counts the dispatch (JAX507 asks whether device work was
        dispatched between two host copies) and checks a single-device output by its sum
        (a NaN or an Inf in an array makes its sum NaN or infinite), with no shard
        objects; a sum that is not finite, or any other output, goes to JAX's own hook,
        which checks exactly and raises where the NaN was made, as before.  Without the
        checker (``--no-debug-nans``) the hook only counts."""
        import numpy as np
        from jax._src import api, dispatch
        from jax._src.array import ArrayImpl
        from jax._src.sharding_impls import SingleDeviceSharding

        import jax

        original = getattr(api, "_nan_check_posthook", None)
        state = getattr(api, "_post_hook_state", None)
        update = getattr(api, "_update_debug_special_global", None)
        if original is None or state is None or update is None:
            return
        leaves, inexact, isfinite = jax.tree_util.tree_leaves, np.inexact, np.isfinite
        needs_check = dispatch.needs_check_special
        probes, inside = self, self.inside

        def exact(fun: Any, args: Any, kwargs: Any, output: Any) -> None:
            on = getattr(inside, "on", False)
            inside.on = True  # JAX's check copies each output: not the user's copy
            try:
                original(fun, args, kwargs, output)
            finally:
                inside.on = on

        def posthook(fun: Any, args: Any, kwargs: Any, output: Any) -> None:
            probes.dispatches += 1
            if not needs_check():
                return
            for leaf in (output,) if type(output) is ArrayImpl else leaves(output):
                if type(leaf) is not ArrayImpl:
                    if hasattr(leaf, "addressable_shards"):
                        return exact(fun, args, kwargs, output)
                    continue
                try:
                    if not issubclass(leaf.dtype.type, inexact):
                        continue
                    if type(leaf.sharding) is not SingleDeviceSharding:
                        return exact(fun, args, kwargs, output)
                    # the buffer as NumPy (no copy on the CPU), not cached on the array
                    value, _copied = leaf._single_device_array_to_np_array_did_copy()
                    total = value.sum()
                except Exception:  # noqa: BLE001 - a key array, a deleted one: JAX's check
                    return exact(fun, args, kwargs, output)
                if not isfinite(total):
                    return exact(fun, args, kwargs, output)

        posthook.__wrapped__ = original  # type: ignore[attr-defined]
        api._nan_check_posthook = posthook  # what JAX's config hooks install, from now on
        self.counting = True
        if needs_check():
            update(None)
        else:
            state.set_global(posthook)

    # device-to-host copies, per line

    def _transfers(self) -> None:
        from jax._src import array

        prop = array.ArrayImpl.__dict__.get("_value")
        getter = getattr(prop, "fget", None)
        if getter is None:
            return
        probes = self

        def _value(arr: Any) -> Any:
            if not getattr(probes.inside, "on", False):
                probes.inside.on = True
                try:
                    # a GPU keeps the host copy (`_npy_value`): reading it again copies nothing
                    if arr._npy_value is None:
                        probes.on_copy(arr, sys._getframe(1))
                except Exception:  # noqa: BLE001
                    pass
                finally:
                    probes.inside.on = False
            return getter(arr)

        array.ArrayImpl._value = property(_value)
        # `.item()` reads the value with `np.asarray`, which takes a single-device
        # array's buffer from C++ without `_value`: counted here, once
        original_item = array.ArrayImpl.__dict__.get("item")
        if callable(original_item):
            def item(arr: Any, *args: Any) -> Any:
                if getattr(probes.inside, "on", False):
                    return original_item(arr, *args)
                probes.inside.on = True
                try:
                    try:
                        probes.on_copy(arr, sys._getframe(1), via="item")
                    except Exception:  # noqa: BLE001
                        pass
                    return original_item(arr, *args)
                finally:
                    probes.inside.on = False

            item.__doc__ = getattr(original_item, "__doc__", None)
            array.ArrayImpl.item = item

    def on_copy(self, arr: Any, frame: Any, via: Optional[str] = None) -> None:
        """A device array copied to the host, implicitly, at the user's line: counted as a
        *sync* when device work was dispatched since the previous copy at that line (the
        host waited for it), with the number of dispatches in between (the gap)."""
        if _not_the_users_copy(frame):
            return
        where = self.user_frame(frame)
        if where is None:
            return
        key = where[:2]
        with self.lock:
            entry = self.d2h.get(key)
            if entry is None:
                entry = self.d2h[key] = {"copies": 0, "syncs": 0, "last": -1, "gaps": [],
                                         "where": where}
            entry["copies"] += 1
            entry["aval"] = f"{arr.dtype}{list(arr.shape)}"
            entry["via"] = via or frame.f_code.co_name
            now = self.dispatches
            if self.counting and now == entry["last"]:
                return  # nothing dispatched since the last copy here: no wait
            if entry["syncs"] and len(entry["gaps"]) < 4096:
                entry["gaps"].append(now - entry["last"])
            entry["last"] = now
            entry["syncs"] += 1
            if entry["syncs"] == self.d2h_threshold:
                self._d2h_hit(entry)

    def _d2h_hit(self, entry: dict, final: bool = False) -> None:
        gaps = sorted(entry["gaps"])
        self.hit("transfer", entry["where"], count=entry["syncs"], copies=entry["copies"],
                 gap=gaps[len(gaps) // 2] if gaps and self.counting else None,
                 aval=entry.get("aval"), via=entry.get("via"), final=final)

    # host-to-device copies: JAX's transfer guard, its log lines read where they are written

    def _host_transfers(self) -> None:
        """``jax_transfer_guard_host_to_device = "log"``: JAX logs each implicit copy of
        host data (a NumPy array, a Python scalar) to a device from C++; ``clog`` reads
        each line in the thread that writes it, so the copy is counted at the user's line
        running then.  Left alone when the program's environment sets a transfer guard of
        its own (its log is its own) or the C library's stderr cannot be tapped."""
        if not self.options.get("host_transfers") or any(
                k.startswith("JAX_TRANSFER_GUARD") for k in os.environ):
            return
        import re

        import jax

        from jaxlint.runtime import clog

        self.guard = re.compile(_GUARD)
        if not clog.install(self.on_guard_log):
            return
        jax.config.update("jax_transfer_guard_host_to_device", "log")

    def on_guard_log(self, data: bytes, frame: Any) -> bool:
        m = self.guard.search(data)
        if m is None:
            return False
        if _in_host_callback(frame):  # a callback's result going back: the code asked for it
            return True
        where = self.user_frame(frame)
        if where is None:
            return True
        aval = m.group(1).decode("utf-8", "replace") if m.group(1) else None
        key = where[:2]
        with self.lock:
            entry = self.h2d.setdefault(key, [0, [], 0, where])
            entry[0] += 1
            if aval is not None:
                if _scalar(aval):
                    entry[2] += 1
                elif aval not in entry[1] and len(entry[1]) < 4:
                    entry[1].append(aval)
            if entry[0] == self.h2d_threshold:
                self._h2d_hit(entry)
        return True

    def _h2d_hit(self, entry: list, final: bool = False) -> None:
        n, arrays, scalars, where = entry
        self.hit("h2d", where, count=n, arrays=list(arrays), scalars=scalars, final=final)

    # raw uint32 keys consumed twice (eager)

    def _raw_keys(self) -> None:
        import functools

        import jax
        import numpy as np

        try:
            from jax._src.core import Tracer
        except ImportError:  # pragma: no cover
            return
        probes = self

        def wrap(name: str, fn: Any) -> Any:
            @functools.wraps(fn)
            def wrapper(key: Any, *a: Any, **k: Any) -> Any:
                try:
                    if not isinstance(key, Tracer) and isinstance(key, jax.Array) \
                            and key.dtype == np.uint32 and key.shape[-1:] == (2,):
                        probes.on_raw_key(key, name)
                except Exception:  # noqa: BLE001
                    pass
                return fn(key, *a, **k)

            wrapper._jaxlint_probe = True  # type: ignore[attr-defined]
            return wrapper

        for name in CONSUMERS:
            fn = getattr(jax.random, name, None)
            if fn is not None and not getattr(fn, "_jaxlint_probe", False):
                setattr(jax.random, name, wrap(name, fn))

    def _typed_keys(self) -> None:
        """JAX's key-reuse checker (``jax_debug_key_reuse``) follows typed keys only, and
        with it on every eager operation and jit call pays for the check (300 steps of
        eager ``jnp``: 1.44 s of CPU -> 1.65 s), whether the program has a typed key or
        not.  So it is switched on when the program first hands a typed key to a
        ``jax.random`` function (each of them checks its key with ``_check_prng_key``
        first, however the function was imported): before that key, or any other, is
        consumed, so every reuse of a typed key is still caught.  A program whose
        environment sets ``JAX_DEBUG_KEY_REUSE`` keeps its own setting."""
        if not self.options.get("key_reuse") or "JAX_DEBUG_KEY_REUSE" in os.environ:
            return
        import jax

        module = sys.modules.get("jax._src.random.core") or sys.modules.get("jax._src.random")
        original = getattr(module, "_check_prng_key", None)
        if original is None:  # another JAX: on from the start, as JAX_DEBUG_KEY_REUSE=1 did
            jax.config.update("jax_debug_key_reuse", True)
            return
        from jax._src import dtypes

        inside_jax = os.path.dirname(os.path.abspath(jax.__file__)) + os.sep

        def _check_prng_key(name: Any, key: Any, *args: Any, **kwargs: Any) -> Any:
            try:
                # a typed key from outside JAX: `jax.random.normal(raw_key)` wraps the raw
                # key and hands the typed one to its own helpers, which check it again
                typed = dtypes.issubdtype(key.dtype, dtypes.prng_key) and not \
                    os.path.abspath(sys._getframe(2).f_code.co_filename).startswith(inside_jax)
            except Exception:  # noqa: BLE001 - not a key array: JAX's own check says so
                typed = False
            if typed:
                module._check_prng_key = original  # type: ignore[union-attr]
                jax.config.update("jax_debug_key_reuse", True)
            return original(name, key, *args, **kwargs)

        module._check_prng_key = _check_prng_key  # type: ignore[union-attr]

    def user_stack(self, frame: Any) -> list[tuple]:
        """The frames inside PATHS, outermost first."""
        out = []
        while frame is not None:
            real = self.user_file(frame.f_code.co_filename)
            if real is not None:
                line, col, end = _positions(frame.f_code, frame.f_lasti, frame.f_lineno)
                out.append((real, line, col, end, getattr(frame.f_code, "co_qualname",
                                                          frame.f_code.co_name)))
            frame = frame.f_back
        return out[::-1]

    def on_raw_key(self, key: Any, name: str) -> None:
        stack = self.user_stack(sys._getframe(2))
        if not stack:
            return
        with self.lock:
            old = self.keys.get(id(key))
            if old is not None and old[0]() is key:
                _ref, first_stack, first = old
                # where the two uses part (a helper called twice with one key: the calls)
                i = next((i for i, (a, b) in enumerate(zip(first_stack, stack))
                          if a[:2] != b[:2]), None)
                where = stack[i] if i is not None else stack[-1]
                before = first_stack[i] if i is not None else first_stack[-1]
                self.hit("raw-key-reuse", where, first=first, first_line=before[1],
                         first_file=before[0], name=name)
                return
            try:
                ref = weakref.ref(key)
            except TypeError:
                return
            self.keys[id(key)] = (ref, stack, name)


_RECORDER = os.path.join("jaxlint", "runtime", "recorder.py")

# JAX's transfer guard log line (xla/python guard_lib.cc); the aval is there when the
# copy went through JAX's Python dispatch, absent on jit's C++ fast path
_GUARD = rb"guard_lib\.cc:\d+\] host-to-device transfer: (?:aval=(.*?), dst_sharding=)?"


def _scalar(aval: str) -> bool:
    """``ShapedArray(float32[], weak_type=True)``: a Python or NumPy scalar (no dims)."""
    import re

    m = re.search(r"\[([^\]]*)\]", aval)
    return m is not None and not m.group(1).strip()


def _in_recorder_checks() -> bool:
    """Whether ``confirm``'s recorder is running its checks (at the process's exit: they
    call, rebuild and re-trace the user's functions; what JAX says then is theirs)."""
    frame = sys._getframe(1)
    while frame is not None:
        if frame.f_code.co_name == "check_all" and frame.f_code.co_filename.endswith(_RECORDER):
            return True
        frame = frame.f_back
    return False


def _traced_for(frame: Any) -> Optional[str]:
    """What the trace that missed the cache was for (``jit``, ``scan``, ``make_jaxpr``...):
    the ``debug_info`` JAX's explain function (partial_eval.py) got."""
    for _ in range(30):
        if frame is None:
            return None
        if frame.f_code.co_name == "explain" and "debug_info" in frame.f_locals:
            return getattr(frame.f_locals["debug_info"], "traced_for", None)
        frame = frame.f_back
    return None


def _text_via(frame: Any) -> str:
    """How the user's line turned a tracer into text: ``print`` or formatting."""
    try:
        import dis

        for ins in dis.get_instructions(frame.f_code):
            if ins.offset == frame.f_lasti:
                if ins.opname == "FORMAT_VALUE":
                    return "an f-string"
                break
    except Exception:  # noqa: BLE001
        pass
    return "print"


def _after_imports(probes: Probes) -> None:
    """``__import__`` that attaches the probes once ``import jax`` has finished."""
    original = builtins.__import__
    depth = threading.local()

    def _import(name: str, globals: Any = None, locals: Any = None, fromlist: Any = (),
                level: int = 0) -> Any:
        if probes.attached:
            return original(name, globals, locals, fromlist, level)
        depth.n = getattr(depth, "n", 0) + 1
        try:
            return original(name, globals, locals, fromlist, level)
        finally:
            depth.n -= 1
            if depth.n == 0 and "jax" in sys.modules:
                probes.maybe_attach()

    _import.__wrapped__ = original  # type: ignore[attr-defined]
    builtins.__import__ = _import


def install() -> None:
    """Called from the sitecustomize shim; a no-op without ``JAXLINT_OBSERVE``."""
    path = os.environ.get(ENV)
    if not path:
        return
    try:
        with open(path, encoding="utf-8") as fh:
            job = json.load(fh)
    except (OSError, ValueError):
        return
    probes = Probes(job)
    probes.emit(event="process", argv=sys.argv[:4], time=time.time())
    _after_imports(probes)
    from jaxlint.runtime import factrec  # `check --observed`'s facts, when the job asks

    factrec.install(job, probes)


# JAX's functions whose host copies are not the user's implicit ones: the NaN/Inf
# checker's, and `jax.device_get` (an explicit transfer: `jax.transfer_guard` allows it)
_NOT_IMPLICIT = frozenset({"_check_special", "check_special", "_nan_check_posthook",
                           "device_get", "_device_get"})


def _not_the_users_copy(frame: Any) -> bool:
    """Whether a host copy runs inside one of JAX's ``_NOT_IMPLICIT`` functions or a
    host callback (the value goes to the host because the code asked for it there)."""
    while frame is not None:
        code = frame.f_code
        name = code.co_filename.replace("\\", "/")
        if "/jax/" in name and (code.co_name in _NOT_IMPLICIT or name.endswith(_CALLBACK_FILES)):
            return True
        frame = frame.f_back
    return False


# JAX's host callbacks (jax.debug.print/callback, io_callback, pure_callback): the
# value is copied to the host because the user asked for it there, not by accident
_CALLBACK_FILES = ("/jax/_src/debugging.py", "/jax/_src/callback.py")


def _in_host_callback(frame: Any) -> bool:
    while frame is not None:
        name = frame.f_code.co_filename.replace("\\", "/")
        if name.endswith(_CALLBACK_FILES):
            return True
        frame = frame.f_back
    return False


SITECUSTOMIZE = '''\
# written by jaxlint observe --run: the probes (jaxlint/runtime/probes.py)
import os as _os
import sys as _sys

try:
    from jaxlint.runtime import probes as _jaxlint_probes
    _jaxlint_probes.install()
except Exception as _exc:  # never break the user's program
    _sys.stderr.write("jaxlint: observe's probes could not start: %r\\n" % (_exc,))

''' + CHAIN_SHADOWED
