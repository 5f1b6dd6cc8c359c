"""JAX401 print-in-traced-code: `print()` of a traced value runs once at trace time and shows a tracer, not the numbers."""

from __future__ import annotations

import ast
import re
import string
from typing import Optional

import libcst as cst

from jaxlint.engine.rule import Invalid, Replacement, Rule, Valid, fix
from jaxlint.findings import Applicability, Severity
from jaxlint.model.repeats import called_repeatedly


def _eager_shard_map(unit) -> bool:
    """Is ``unit`` traced only as the body of a `shard_map` applied outside `jit`?
    Called eagerly, shard_map runs the body on every call, and printing a value
    there prints each device's block ("On cpu:0 at mesh coordinates ..."), not an
    abstract tracer (jax 0.10.2)."""
    u = unit
    while u is not None and u.reasons:
        if all("shard_map" in r for r in u.reasons):
            return True
        if not all(r.startswith("defined inside traced") for r in u.reasons):
            return False
        u = u.parent
    return False


def _jitted_itself(unit) -> bool:
    """``unit`` is jitted (or pmapped) itself, or nested in a function that is (a scan
    body inside a jitted step): a decorator or a wrapper names the jit, so the trace
    is cached and a later call prints nothing."""
    while unit is not None:
        if unit.jitted_itself:
            return True
        unit = unit.parent
    return False


def _body_outside_jit(unit) -> Optional[str]:
    """``lax.scan`` for a unit traced only as the body of a structured control-flow
    call made outside any traced function (``jax.lax.scan(body, ...)`` in plain
    Python): JAX traces the body on each such call, so the print runs again on a
    later call when the body is a new closure; None otherwise."""
    prefix = "a body passed to "
    if not unit.reasons or not all(r.startswith(prefix) for r in unit.reasons):
        return None
    if unit.parent is not None and unit.parent.traced:
        return None
    return unit.reasons[0][len(prefix):].split(" ")[0]


# functions that write their argument's text like `print` does (jax 0.10.2 under jit: each
# writes `JitTracer(float32[3])`): the standard streams' `write`, `pprint`
_WRITERS = frozenset({"sys.stdout.write", "sys.stderr.write", "pprint.pprint", "pprint.pp"})

# logging calls that write what they are given (the stdlib's module functions and
# Logger methods; absl's logging module has the same names)
_LOG_LEVELS = frozenset({"debug", "info", "warning", "warn", "error", "critical", "fatal", "exception", "log"})
_LOGGING_MODULES = frozenset({"logging", "absl.logging"})
_GET_LOGGER = frozenset({"logging.getLogger", "absl.logging.get_absl_logger"})

# host-side recorders that keep what they are given, as Python values, when they run:
# profiler annotations (a trace event named or numbered by their arguments).  In traced
# code they run once, while JAX traces (a `fori_loop`/`scan` body: once for all
# iterations), and record the tracer
_RECORDERS = {
    "jax.profiler.StepTraceAnnotation": "annotates",
    "jax.profiler.TraceAnnotation": "annotates",
}

# builtin conversions of a value to text, as a format field of jax.debug.print
_CONVERSIONS = {"repr": "{!r}", "str": "{}", "ascii": "{!a}"}


# one `%` conversion: (mapping key) flags width .precision type
_PERCENT = re.compile(r"%(\((?P<key>[^)]*)\))?(?P<flags>[#0 +-]*)(?P<width>\*|\d+)?(?:\.(?P<prec>\*|\d+))?[hlL]?(?P<type>.)", re.S)


def _percent_fields(text: str) -> Optional[list[tuple[str, Optional[str]]]]:
    """``"mean %s, %.3f"`` -> [("mean ", "{}"), (", ", "{:.3f}")] (literal text, then the
    `str.format` field of one value, None after the last); None for what has no
    plain `str.format` form (a mapping key, `*` widths, `%c`)."""
    out: list[tuple[str, Optional[str]]] = []
    pos, lit = 0, []
    for m in _PERCENT.finditer(text):
        lit.append(text[pos:m.start()])
        pos = m.end()
        kind = m.group("type")
        if kind == "%" and not (m.group("key") or m.group("flags") or m.group("width") or m.group("prec")):
            lit.append("%")
            continue
        if m.group("key") is not None or m.group("width") == "*" or m.group("prec") == "*":
            return None
        spec = m.group("flags").replace("-", "<").replace(" ", " ") + (m.group("width") or "")
        if m.group("prec"):
            spec += "." + m.group("prec")
        if kind in "sdiu" and not spec:
            field = "{}"
        elif kind == "r" and not spec:
            field = "{!r}"
        elif kind == "a" and not spec:
            field = "{!a}"
        elif kind in "feEgGxXo":
            field = "{:" + spec + kind + "}"
        else:
            return None
        out.append(("".join(lit), field))
        lit = []
    if "%" in text[pos:]:
        return None
    out.append(("".join(lit) + text[pos:], None))
    return out


def _prints_as_written(fmt: str) -> bool:
    """Does ``jax.debug.print(fmt, ...)`` print what ``fmt.format(...)`` would?  JAX
    decides whether a format has placeholders from its first chunk alone
    (``string.Formatter().parse``): a brace written double (``{{``) before the first
    ``{}`` ends that chunk, and JAX then prints ``fmt`` raw, doubled braces and all,
    followed by the values."""
    try:
        chunks = list(string.Formatter().parse(fmt))
    except ValueError:
        return False
    if not chunks:
        return True
    if chunks[0][1] is not None:
        return True
    # no field in the first chunk: JAX prints `fmt` as it is, right only without fields or escapes
    return all(c[1] is None for c in chunks) and "{" not in fmt and "}" not in fmt


def _percent_kinds(text: str) -> Optional[list[str]]:
    """``"f(%s, %.3f) 5%%"`` -> ["s", "f"]: the conversion type of each `%` field that
    takes a value; None for a mapping key or a `*` width (values we cannot pair)."""
    kinds = []
    for m in _PERCENT.finditer(text):
        if m.group("type") == "%" and not (m.group("key") or m.group("flags") or m.group("width") or m.group("prec")):
            continue
        if m.group("key") is not None or m.group("width") == "*" or m.group("prec") == "*":
            return None
        kinds.append(m.group("type"))
    return kinds


# transformations whose body runs once per iteration
_LOOPS = ("scan", "fori_loop", "while_loop", "lax.map", "associative_scan")


# what `%` formatting of a tracer raises, by conversion type (jax 0.10.2)
_NUMBER_ERRORS = {
    **{k: f"`TypeError: %{k} format: a real number is required, not DynamicJaxprTracer`" for k in "diu"},
    **{k: "`ConcretizationTypeError` (`float()` of a tracer)" for k in "eEfFgG"},
}


def _str_literal(text: str) -> str:
    if '"' not in text and "\\" not in text and text.isprintable():
        return f'"{text}"'
    return repr(text)


# a static value's field in a format being built: `\x00N\x00`, N its index in the list
# of (code, conversion, spec) the fix collects
_STATIC = re.compile("\x00(\\d+)\x00")
# attributes of an array that are Python values under a trace (its shape, rank, dtype)
_STATIC_ATTRS = frozenset({"shape", "dtype", "ndim"})


def _format_literal(text: str, statics: list[tuple[str, str, str]]) -> Optional[str]:
    """The format argument of ``jax.debug.print`` for ``text`` (its own format, `{}`
    fields for the traced values): a string literal, or an f-string when ``text`` holds
    static values' fields (``x.shape``: Python formats them as `print` did, e.g. `(3,)`,
    where an argument of jax.debug.print would become an array); None when it has no
    such form (a quote or a backslash in a field, JAX would print the format raw)."""
    if not statics:
        return _str_literal(text) if _prints_as_written(text) else None
    if not _prints_as_written(_STATIC.sub("S", text)):
        return None
    for quote in ('"', "'"):
        parts = _STATIC.split(text)
        body = []
        for i, part in enumerate(parts):
            if i % 2:
                code, conv, spec = statics[int(part)]
                if any(c in code for c in ("'", '"', "\\", "\n", "{", "}", "#")) \
                        or any(c in spec for c in "{}\\'\""):
                    return None
                body.append("{" + code + (f"!{conv}" if conv else "") + (f":{spec}" if spec else "") + "}")
                continue
            if quote in part or "\\" in part or not part.isprintable() or "\x00" in part:
                break
            body.append(part.replace("{", "{{").replace("}", "}}"))
        else:
            return f"f{quote}{''.join(body)}{quote}"
    return None


M401_F = '`print` in traced `f` runs once, at trace time, and prints a tracer (e.g. `JitTracer(float32[])`), not the values; later calls print nothing. Use `jax.debug.print("{}", x)` to print runtime values'
M401_LOG = '`print` in traced `log` runs only while JAX traces it and prints a tracer (e.g. `JitTracer(float32[])`), not the values; a call served from jit\'s cache prints nothing. Use `jax.debug.print("{}", x)` to print runtime values'
ARG_LOG = 'an argument of `jax.debug.print` in `log` is text Python formats at trace time, with the tracer: it prints the tracer\'s text (e.g. `JitTracer(float32[])`), not the values. Pass the value itself and put the placeholder in the format string: `jax.debug.print("mean {}", x)`'


class PrintInTraced(Rule):
    code = "JAX401"
    name = "print-in-traced-code"
    runtime_check = '`jax.checking_leaks()`, then two jitted calls compared call by call: a print that runs at trace time only.'
    summary = "`print()` of a traced value runs once at trace time and shows a tracer, not the numbers"
    severity = Severity.ERROR
    seed = "The Sharp Bits § Pure functions (seed 000); tutorial § jit and side effects (seed 002)"
    what_it_does = (
        "Flags the builtin `print(...)` inside code that JAX traces (`jit`, `vmap`, `lax.scan` "
        "bodies, helpers they call, and the functions a helper's traced closure calls through "
        "its parameters: `_while_loop_lax(cond_fun=self._cond_fun, ...)` whose own `_cond` "
        "given to `lax.while_loop` calls `cond_fun`) when an argument is a traced value: a non-static "
        "argument or anything JAX computed from one, also inside an f-string or "
        "`str.format`, or a Python container the model can show holds one: a tuple or list "
        "with a tracer among its elements, a dict with one among its values, a NamedTuple or "
        "a flax/chex dataclass built with one in a field (`print(metrics)` after `metrics = "
        "{\"loss\": loss}`, `print(LossOutputs(loss=loss, ...))`, `dict(loss=loss)`), at any "
        "depth: its repr shows the tracer's. Prints of static values only (`x.shape`, `x.dtype`, literal strings, "
        "static arguments) are not flagged: they are a deliberate trace-time log, printed "
        "once per compilation. `print(repr(x))`/`print(str(x))` of a tracer are flagged too, and so "
        "are `print(type(x))`, `type(x).__name__` and `x.__class__` of a tracer: they print the "
        "tracer's class (`DynamicJaxprTracer`), not the type of the array the call is given.\n\n"
        "Also flagged: `print` of a differentiated value in a function differentiated outside "
        "`jit` (`jax.grad(f)(x)`, `value_and_grad`, `jacrev`, `vjp`..., and the helpers it hands "
        "its tracers to): it runs on every call but prints `GradTracer(primal=..., ...)`, not "
        "the value (not an integer or boolean result, `x.astype(int)`, `x > 0`, nor "
        "`lax.stop_gradient(x)`: JAX drops their derivative and they print as numbers); and an "
        "f-string (or `str.format`, `%`) of a tracer as the format string of "
        "`jax.debug.print` (`jax.debug.print(f\"{x}\")`): Python formats the tracer before "
        "`jax.debug.print` sees it.\n\n"
        "A print of text only (`print(\"Executing function\")`) is flagged in two cases: in a plain "
        "function, not decorated, that the file jits where it calls it, at two or more calls "
        "(`jit(f)(4.)` ... `jit(f)(5.)`) or as a name called in a loop (`step = jax.jit(update)`); "
        "and in a module-level def decorated with the jit (`@jax.jit`, `@partial(jax.jit, ...)`) "
        "that the project calls again (in a loop, twice one after the other, or from a function "
        "that runs again, in this module or another): "
        "written for a Python function that prints on every call, it prints only while JAX "
        "traces. Text that says it is tracing or compiling is a deliberate log and not flagged.\n\n"
        "`builtins.print` is `print`; `sys.stdout.write`, `sys.stderr.write`, `pprint.pprint` and "
        "`pprint.pp` of a traced value write its tracer the same way (flagged, no fix).\n\n"
        "Logging is printing too, with the same rules: `logging.info/debug/warning/error/...`, "
        "absl's `logging.info(...)`, and a logger bound to `logging.getLogger(...)` "
        "(`logger.info(\"loss %s\", loss)`) log the tracer once, at trace time (no fix: "
        "`jax.debug.print` writes to stdout, not to the log). A log of the traced function's own "
        "parameters, as given, with `%s`/`%r` or a plain f-string field "
        "(`logging.info(\"train_step(batch=%s)\", batch)` at the top of a jitted step) is a "
        "deliberate trace-time log, not flagged: it runs once per trace and the tracer's text "
        "(`JitTracer(float32[8,32])`) is the shape and dtype each compilation was made for. A value "
        "computed in the body, a parameter rebound first, or the carry of a `scan`/`fori_loop` body "
        "is still flagged; so is `%d`/`%f` of any tracer in a logging call: formatting it fails "
        "(`TypeError: %d format: a real number is required`, `ConcretizationTypeError` for `%f`), "
        "and when the record is emitted (its level enabled) logging writes `--- Logging error ---` "
        "instead of the line; at a disabled level nothing is written either way.\n\n"
        "Profiler annotations are host-side records too: `jax.profiler.TraceAnnotation(...)` and "
        "`StepTraceAnnotation(..., step_num=i)` given a traced value (a `fori_loop` body's index, "
        "a jitted step's argument) are entered once, at trace time, with the tracer's text; with a "
        "literal name they are a deliberate trace-time annotation and not flagged.\n\n"
        "A format spec on a tracer in an f-string (`print(f\"{loss:.3f}\")`, `logging.info(f\"{x.mean():8.3f}\")`) "
        "does not print a tracer: it raises `TypeError: unsupported format string passed to "
        "DynamicJaxprTracer.__format__` at trace time, and the message says so."
    )
    why_bad = (
        "`print` is a Python side effect. It runs while JAX traces the function, once per new "
        "input shape/dtype, and what it prints is the abstract tracer:\n\n"
        "```\nprint: JitTracer(~int32[])\n```\n\n"
        "Later calls hit the compilation cache and print nothing at all, so the output "
        "neither shows the values nor appears on every call. No error or warning is given."
    )
    use_instead = (
        "`jax.debug.print` is staged into the computation and prints the runtime values on every "
        "call (once per element under `vmap`):\n\n"
        "```python\n@jax.jit\ndef f(x):\n    y = jnp.sin(x)\n    jax.debug.print(\"y = {}\", y)\n    return y\n```"
    )
    fix_safety = (
        "When the module imports `jax` as a name, the fix rewrites `print(a, b)` to "
        "`jax.debug.print(\"{} {}\", a, b)` (string literals are folded into the format "
        "string; a single f-string becomes a format string with its expressions as arguments; "
        "`repr(x)`/`str(x)` become `{!r}`/`{}` fields of `x`; "
        "`jax` is spelled with the module's alias). It is **unsafe**: the output changes "
        "(values instead of tracers, printed on every call and asynchronously, array "
        "formatting differs), and `print` keywords (`sep=`, `end=`, `file=`) have no "
        "equivalent, so calls using them are not rewritten. `jax.debug.print(f\"x={x}\")` "
        "with no other argument becomes `jax.debug.print(\"x={}\", x)` (unsafe too). "
        "A static value (an array's `.shape`, `.ndim`, `.dtype`, an index of its shape, "
        "`len(...)`, a number) stays Python's to format, so it prints as `print` printed "
        "it: `print(\"shape\", x.shape, \"loss\", loss)` becomes "
        "`jax.debug.print(f\"shape {x.shape} loss {{}}\", loss)`, which prints "
        "`shape (3,) loss 3.0` (passed as an argument, the shape would become arrays: "
        "`(Array(3, dtype=int32),)`). "
        "No fix is offered where the text before the first value holds a brace "
        "(`print(\"shape {n}\", x)`): JAX decides whether a format has placeholders from "
        "the text before its first `{}`, and a brace written double there makes it print "
        "the format raw (`shape {{n}} {} 2.5`)."
    )
    VALID = [
        # text-only prints as trace-time logs: in a function decorated with jit and called
        # once, one that says it is tracing, one jitted and called once; a method jitted as `jax.jit(foo.f)`
        # twice traces twice (a new bound method each time: jax#19570)
        Valid(
            """
            import jax
            import jax.numpy as jnp


            @jax.jit
            def decorated(w):
                print("Running decorated()")
                return w * 2


            def compile_step(w):
                print("tracing compile_step")
                return w - 1


            def once(w):
                print("running once")
                return w * 2


            fast = jax.jit(compile_step)
            w = jnp.ones(3)
            for _ in range(3):
                w = fast(w)
            print(jax.jit(once)(decorated(w)))


            class Foo:
                def f(self, x):
                    print("f")
                    return x


            foo = Foo()
            a = jax.jit(foo.f)(w)
            b = jax.jit(foo.f)(w)
            """
        ),
        # text formatted from static values only: the shape, a Python int, a name
        Valid(
            """
            import jax

            @jax.jit
            def f(x, y):
                print("shape %s of %s" % (x.shape, "x"))
                jax.debug.print("{} at {}", x, "step %d" % 3)
                jax.debug.print("{} {}", y % 2, "dtype {}".format(x.dtype))
                return x
            """
        ),
        # jax.debug.print in jit
        Valid(
            """
            import jax
            import jax.numpy as jnp

            @jax.jit
            def f(x):
                y = jnp.sin(x)
                jax.debug.print("y = {}", y)
                return y
            """
        ),
        # print outside traced code
        Valid(
            """
            import jax
            import jax.numpy as jnp

            def report(x):
                print("mean:", jnp.mean(x))

            report(jnp.ones(3))
            """
        ),
        # static values only: shapes, dtypes, literal strings, static args
        Valid(
            """
            from functools import partial
            import jax

            @partial(jax.jit, static_argnums=1)
            def f(x, n):
                print("tracing f with", x.shape, x.dtype, n)
                print(f"shape={x.shape}")
                return x * n
            """
        ),
        # host callbacks see concrete values
        Valid(
            """
            import jax

            def log(v):
                print("value", v)

            @jax.jit
            def f(x):
                jax.debug.callback(log, x)
                return x
            """
        ),
        # a local function named print
        Valid(
            """
            import jax

            def print(*args):
                pass

            @jax.jit
            def f(x):
                print(x)
                return x
            """
        ),
        # shard_map applied eagerly: the body runs on each call and print shows every
        # device's block of values
        Valid(
            """
            import jax
            import jax.numpy as jnp
            from jax.sharding import PartitionSpec as P

            jax.set_mesh(jax.make_mesh((2,), ('i',)))

            @jax.shard_map(in_specs=P('i'), out_specs=P('i'))
            def f(x):
                print(x)
                return 2 * x

            f(jax.device_put(jnp.arange(6.), P('i')))
            """
        ),
        Valid(
            """
            import jax
            from jax.experimental.shard_map import shard_map
            from jax.sharding import Mesh, PartitionSpec as P

            mesh = Mesh(jax.devices()[:2], ('i',))

            def blocks(x_block):
                print('BEFORE:', x_block)
                y = jax.lax.psum(x_block, 'i')
                print('AFTER:', y)
                return y

            f = shard_map(blocks, mesh=mesh, in_specs=P('i'), out_specs=P())
            """
        ),
        # the gradient computed outside any trace is a concrete array
        Valid(
            """
            import jax
            import jax.numpy as jnp

            def loss(w, x):
                return jnp.sum((x @ w) ** 2)

            def report(w, x):
                g = jax.grad(loss)(w, x)
                print("grad", g)
            """
        ),
        # differentiated outside jit: jax.debug.print shows the values, shapes are
        # Python values, and Python control flow on the value works
        Valid(
            """
            import jax
            import jax.numpy as jnp

            def loss(w, x):
                print("shapes", w.shape, x.shape)
                jax.debug.print("w = {}", w)
                jax.debug.print("x = {x}", x=x)
                if jnp.sum(w) > 0:
                    return jnp.sum((x @ w) ** 2)
                return jnp.sum(w)

            g = jax.grad(loss)(jnp.ones(3), jnp.ones((2, 3)))
            """
        ),
        # an f-string of static values only, filled before jax.debug.print fills `{}`
        Valid(
            """
            import jax

            @jax.jit
            def f(x):
                jax.debug.print(f"shape {x.shape}: {{}}", x)
                return x
            """
        ),
        # logs of static values (a shape, a text): trace-time logs on purpose; a logger that
        # is not `logging.getLogger(...)`; logging outside traced code
        Valid(
            """
            import logging

            import jax
            import jax.numpy as jnp

            logger = logging.getLogger(__name__)


            class Recorder:
                def info(self, v):
                    return v


            rec = Recorder()


            @jax.jit
            def step(x):
                logger.info("step traced with shape %s", x.shape)
                logging.debug("compiling step")
                rec.info(x)
                return jnp.mean(x ** 2)


            loss = step(jnp.ones(3))
            logging.info("loss %s", loss)
            """
        ),
        # profiler annotations with literal names in traced code, and one numbered by the
        # Python loop around the jitted call
        Valid(
            """
            import jax
            import jax.numpy as jnp


            @jax.jit
            def step(state):
                with jax.profiler.TraceAnnotation("forward"):
                    return state * 2


            def train(state, steps):
                for i in range(steps):
                    with jax.profiler.StepTraceAnnotation("train", step_num=i):
                        state = step(state)
                return state
            """
        ),
        # a log of the step's own inputs, as given: once per trace, the shapes each
        # compilation was made for (absl's logging, a helper's parameter, an f-string)
        Valid(
            """
            import functools

            import jax
            import jax.numpy as jnp
            from absl import logging


            def learning_rate(step, base):
                logging.info("learning_rate(step=%s, base=%s)", step, base)
                return base / (1.0 + step)


            @functools.partial(jax.pmap, axis_name="batch")
            def train_step(state, batch):
                logging.info("train_step(batch=%s)", batch)
                logging.info(f"train_step(state={state!r})")
                return state - learning_rate(state, 0.1) * jnp.mean(batch)
            """
        ),
        # the twins: a deliberate trace-time log, and a jitted def called once
        Valid(
            """
            import jax
            import jax.numpy as jnp

            @jax.jit
            def f(x):
                print("tracing f")
                return x + 1

            @jax.jit
            def h(x):
                print("once")
                return x * 2

            def main():
                f(jnp.ones(3))
                f(jnp.ones(3))
                return h(jnp.ones(3))
            """
        ),
        # the twins: text only and a static shape inside, the values written outside
        Valid(
            """
            import pprint
            import sys

            import jax
            import jax.numpy as jnp

            @jax.jit
            def f(x):
                sys.stdout.write("tracing f\\n")
                pprint.pprint(x.shape)
                return jnp.sin(x)

            y = f(jnp.ones(3))
            sys.stdout.write(f"y = {y}\\n")
            pprint.pprint(y)
            """
        ),
    ]

    INVALID = [
        # a container that holds a tracer: a dict display, a NamedTuple built with one
        Invalid(
            """
            from typing import NamedTuple

            import jax
            import jax.numpy as jnp


            class LossOutputs(NamedTuple):
                loss: jax.Array
                count: int


            @jax.jit
            def train_step(w, x):
                loss = jnp.mean((x @ w) ** 2)
                metrics = {"loss": loss}
                print("metrics:", metrics)
                print(LossOutputs(loss=loss, count=1))
                return w, metrics
            """,
            expected=[(16, 5), (17, 5)],
            messages=[
                "`print` in traced `train_step` runs once, at trace time, and prints a tracer (e.g. `JitTracer(float32[])`), not the values; later calls print nothing. Use `jax.debug.print(\"{}\", x)` to print runtime values",
                "`print` in traced `train_step` runs once, at trace time, and prints a tracer (e.g. `JitTracer(float32[])`), not the values; later calls print nothing. Use `jax.debug.print(\"{}\", x)` to print runtime values",
            ],
            unsafe=True,
            fixed="""
            from typing import NamedTuple

            import jax
            import jax.numpy as jnp


            class LossOutputs(NamedTuple):
                loss: jax.Array
                count: int


            @jax.jit
            def train_step(w, x):
                loss = jnp.mean((x @ w) ** 2)
                metrics = {"loss": loss}
                jax.debug.print("metrics: {}", metrics)
                jax.debug.print("{}", LossOutputs(loss=loss, count=1))
                return w, metrics
            """,
        ),
        # a print of text only, in a plain function the file jits where it calls it (The
        # Sharp Bits' `impure_print_side_effect`): as a name called in a loop, or inline at
        # two calls
        Invalid(
            """
            import jax
            import jax.numpy as jnp


            def update(w, g):
                print("updating weights")
                return w - 0.1 * g


            step = jax.jit(update)
            w = jnp.ones(3)
            for g in jnp.ones((4, 3)):
                w = step(w, g)
            """,
            expected=[(6, 5)],
            messages=[
                "`print` in `update`, which this file jits as `step`, called in a loop, runs only while JAX traces it: the first call prints, later calls served from the compilation cache print nothing. Use `jax.debug.print(...)` to print on every call, or print outside the jitted function",
            ],
        ),
        Invalid(
            """
            import jax
            import jax.numpy as jnp


            def log_and_scale(x):
                print("scaling", "x")
                return 2 * x


            def main():
                a = jax.jit(log_and_scale)(jnp.ones(3))
                b = jax.jit(log_and_scale)(jnp.zeros(3))
                return a, b
            """,
            expected=[(6, 5)],
            messages=[
                "`print` in `log_and_scale`, which this file jits where it calls it (2 times), runs only while JAX traces it: the first call prints, later calls served from the compilation cache print nothing. Use `jax.debug.print(...)` to print on every call, or print outside the jitted function",
            ],
        ),
        # a print of text only in a jitted def (`@jit`, `@partial(jax.jit, ...)`) that the
        # project calls again: two calls one after the other, a loop (jax 0.10.2: "Running
        # f():" printed once for two calls, "step" once for three iterations)
        Invalid(
            """
            import functools
            import jax
            import jax.numpy as jnp
            from jax import jit

            @jit
            def f(x, y):
                print("Running f():")
                return x @ y

            @functools.partial(jax.jit, static_argnums=1)
            def g(x, n):
                print("step")
                return x * n

            def main(batches):
                x, y = jnp.ones((3, 4)), jnp.ones(4)
                f(x, y)
                f(x, y)
                for b in batches:
                    g(b, 2)
            """,
            expected=[(8, 5), (13, 5)],
            messages=[
                "`print` in `f`, which this file jits and the project calls again, runs only while JAX traces it: the first call prints, later calls served from the compilation cache print nothing. Use `jax.debug.print(...)` to print on every call, or print outside the jitted function",
                "`print` in `g`, which this file jits and the project calls again, runs only while JAX traces it: the first call prints, later calls served from the compilation cache print nothing. Use `jax.debug.print(...)` to print on every call, or print outside the jitted function",
            ],
        ),
        # print's siblings: a standard stream's `write` (imported from sys) and `pprint`
        # (under another name, in a vmapped function): jax 0.10.2 writes
        # `y = JitTracer(float32[3])` and `{'row': VmapTracer(...)}`
        Invalid(
            """
            import pprint as pp
            from sys import stdout

            import jax
            import jax.numpy as jnp

            @jax.jit
            def f(x):
                y = jnp.sin(x)
                stdout.write(f"y = {y}\\n")
                return y

            def g(row):
                pp.pprint({"row": row})
                return row * 2

            f(jnp.ones(3))
            jax.vmap(g)(jnp.ones((2, 3)))
            """,
            expected=[(10, 5), (14, 5)],
            messages=[
                "`stdout.write` in traced `f` runs only while JAX traces it and writes a tracer (e.g. `JitTracer(float32[])`), not the values; a call served from jit's cache writes nothing. Use `jax.debug.print(\"{}\", x)` to print runtime values",
                "`pp.pprint` in traced `g` runs only while JAX traces it and writes a tracer (e.g. `JitTracer(float32[])`), not the values; a call served from jit's cache writes nothing. Use `jax.debug.print(\"{}\", x)` to print runtime values",
            ],
        ),
        # `%` and `str.format` in a print: the placeholders become jax.debug.print's
        # own (never `jax.debug.print("{}", "mean %s" % x)`, which prints the tracer)
        Invalid(
            """
            import jax

            @jax.jit
            def f(x, y):
                print("mean %s, std %.3f %%" % (x.mean(), y))
                print("val {} of {n}".format(x, n=y))
                return x
            """,
            expected=[(5, 5), (6, 5)],
            messages=[M401_F, M401_F],
            fixed="""
            import jax

            @jax.jit
            def f(x, y):
                jax.debug.print("mean {}, std {:.3f} %", x.mean(), y)
                jax.debug.print("val {} of {}", x, y)
                return x
            """,
            unsafe=True,
        ),
        # a helper traced through a scan, with `jax` under another name: text made
        # from the tracer handed to jax.debug.print is flagged; a print whose text
        # has no plain placeholder form (`"n=" + str(x)`) gets no fix
        Invalid(
            """
            import jax as jx

            def log(v):
                jx.debug.print("{}", "v=%r" % (v,))
                print("n=" + str(v))

            def body(c, v):
                log(v)
                return c + v, v

            def run(xs):
                return jx.lax.scan(body, 0.0, xs)
            """,
            expected=[(4, 26), (5, 5)],
            messages=[ARG_LOG, M401_LOG],
        ),
        Invalid(
            """
            import jax
            import jax.numpy as jnp

            @jax.jit
            def f(x):
                y = jnp.sin(x)
                print("y =", y)
                return y
            """,
            expected=[(7, 5)],
            messages=[
                '`print` in traced `f` runs once, at trace time, and prints a tracer (e.g. `JitTracer(float32[])`), not the values; later calls print nothing. Use `jax.debug.print("{}", x)` to print runtime values',
            ],
            fixed="""
            import jax
            import jax.numpy as jnp

            @jax.jit
            def f(x):
                y = jnp.sin(x)
                jax.debug.print("y = {}", y)
                return y
            """,
            unsafe=True,
        ),
        Invalid(
            """
            import jax as jx

            def body(carry, x):
                print(f"carry={carry:.3f} x={x!r}")
                return carry + x, x

            out = jx.lax.scan(body, 0.0, jx.numpy.arange(3.0))
            """,
            expected=[(4, 5)],
            messages=[
                '`print` in `body` formats the tracer `carry` with `:.3f` while JAX traces it: this raises `TypeError: unsupported format string passed to DynamicJaxprTracer.__format__` (a tracer has no value to format). Use `jax.debug.print("{:.3f}", carry)` to print the runtime value',
            ],
            fixed="""
            import jax as jx

            def body(carry, x):
                jx.debug.print("carry={:.3f} x={!r}", carry, x)
                return carry + x, x

            out = jx.lax.scan(body, 0.0, jx.numpy.arange(3.0))
            """,
            unsafe=True,
        ),
        # no `jax` name imported: reported without a fix
        Invalid(
            """
            from jax import jit

            @jit
            def f(x):
                print(x, sep=", ")
                return x * 2
            """,
            expected=[(5, 5)],
            messages=[
                '`print` in traced `f` runs once, at trace time, and prints a tracer (e.g. `JitTracer(float32[])`), not the values; later calls print nothing. Use `jax.debug.print("{}", x)` to print runtime values',
            ],
        ),
        # the same shard_map body under jit is traced: it prints a tracer, once
        Invalid(
            """
            import jax
            import jax.numpy as jnp
            from jax.sharding import PartitionSpec as P

            @jax.jit
            @jax.shard_map(in_specs=P('i'), out_specs=P('i'))
            def f(x):
                print(x)
                return 2 * x
            """,
            expected=[(8, 5)],
            messages=[
                '`print` in traced `f` runs once, at trace time, and prints a tracer (e.g. `JitTracer(float32[])`), not the values; later calls print nothing. Use `jax.debug.print("{}", x)` to print runtime values',
            ],
            fixed="""
            import jax
            import jax.numpy as jnp
            from jax.sharding import PartitionSpec as P

            @jax.jit
            @jax.shard_map(in_specs=P('i'), out_specs=P('i'))
            def f(x):
                jax.debug.print("{}", x)
                return 2 * x
            """,
            unsafe=True,
        ),
        # what grad/value_and_grad compute inside a jitted step is a tracer, whatever the
        # arguments were (equinox filters them: the unannotated `x` may be static)
        Invalid(
            """
            import equinox as eqx
            import jax
            import jax.numpy as jnp

            def loss_fn(model, x, y):
                return jnp.mean((jax.vmap(model)(x) - y) ** 2)

            @eqx.filter_jit
            def make_step(model, x, y):
                loss, grads = eqx.filter_value_and_grad(loss_fn)(model, x, y)
                print("loss", loss)
                return grads

            @jax.jit
            def step(w, x):
                g = jax.grad(lambda v: jnp.sum(v * x))(w)
                print(g)
                return w - g
            """,
            expected=[(11, 5), (17, 5)],
            messages=[
                '`print` in traced `make_step` runs once, at trace time, and prints a tracer (e.g. `JitTracer(float32[])`), not the values; later calls print nothing. Use `jax.debug.print("{}", x)` to print runtime values',
                '`print` in traced `step` runs once, at trace time, and prints a tracer (e.g. `JitTracer(float32[])`), not the values; later calls print nothing. Use `jax.debug.print("{}", x)` to print runtime values',
            ],
        ),
        # differentiated outside jit (jax.grad(f)(x), any spelling): f runs on every call,
        # but with tracers of the values, and print shows them (`GradTracer(primal=...)`)
        Invalid(
            """
            from jax import grad as g
            import jax.numpy as jnp

            def loss(w, x):
                err = jnp.sum((x @ w) ** 2)
                print("loss", err)
                return err

            dw = g(loss)(jnp.ones(3), jnp.ones((2, 3)))
            """,
            expected=[(6, 5)],
            messages=[
                '`print` in `loss`, differentiated by jax.grad, prints a tracer (e.g. `GradTracer(primal=1.0, ...)`), not the values: JAX differentiates it with tracers even outside jit. Use `jax.debug.print("{}", x)` to print the values',
            ],
        ),
        # ... also in a helper the differentiated function hands its tracers to
        Invalid(
            """
            import jax
            import jax.numpy as jnp

            def log_state(step, w):
                print(f"step {step}: w={w}")

            def loss(w, step):
                log_state(step, w)
                return jnp.sum(w ** 2)

            value, grads = jax.value_and_grad(loss)(jnp.ones(3), 0)
            """,
            expected=[(5, 5)],
            messages=[
                '`print` in `log_state`, called from differentiated `loss`, prints a tracer (e.g. `GradTracer(primal=1.0, ...)`), not the values: JAX differentiates it with tracers even outside jit. Use `jax.debug.print("{}", x)` to print the values',
            ],
            fixed="""
            import jax
            import jax.numpy as jnp

            def log_state(step, w):
                jax.debug.print("step {}: w={}", step, w)

            def loss(w, step):
                log_state(step, w)
                return jnp.sum(w ** 2)

            value, grads = jax.value_and_grad(loss)(jnp.ones(3), 0)
            """,
            unsafe=True,
        ),
        # the tracer's text through repr(), and an f-string Python fills before
        # jax.debug.print sees it: both print `JitTracer(~float32[])`
        Invalid(
            """
            import jax

            @jax.jit
            def f(x):
                print(repr(x))
                jax.debug.print(f"x={x}")
                return x
            """,
            expected=[(5, 5), (6, 21)],
            messages=[
                '`print` in traced `f` runs once, at trace time, and prints a tracer (e.g. `JitTracer(float32[])`), not the values; later calls print nothing. Use `jax.debug.print("{}", x)` to print runtime values',
                'the format string of `jax.debug.print` in `f` is formatted by Python before JAX sees it, with the tracer: it prints the tracer\'s text (e.g. `JitTracer(float32[])`), not the values. Write the placeholders for `jax.debug.print` to fill: `jax.debug.print("{}", x)` (`{x}` in a plain string with `x=x`)',
            ],
            fixed="""
            import jax

            @jax.jit
            def f(x):
                jax.debug.print("{!r}", x)
                jax.debug.print("x={}", x)
                return x
            """,
            unsafe=True,
        ),
        # logging is a print too: the stdlib's module functions, a Logger, absl's logging
        Invalid(
            """
            import logging

            import jax
            import jax.numpy as jnp
            from absl import logging as alog

            logger = logging.getLogger(__name__)


            @jax.jit
            def step(x):
                loss = jnp.mean(x ** 2)
                logging.info(loss)
                logger.info("loss %s", loss)
                alog.warning(f"loss={loss}")
                return loss


            def body(c, x):
                log = logging.getLogger("train")
                log.debug("carry %s", c)
                return c + x, x


            out = jax.lax.scan(body, 0.0, jnp.ones(3))
            """,
            expected=[(13, 5), (14, 5), (15, 5), (21, 5)],
            messages=[
                '`logging.info` in traced `step` runs once, at trace time, and logs a tracer (e.g. `JitTracer(float32[])`), not the values; later calls log nothing. Return the value and log it outside, or log from the device with `jax.debug.callback(lambda v: logging.info("%s", v), x)`',
                '`logger.info` in traced `step` runs once, at trace time, and logs a tracer (e.g. `JitTracer(float32[])`), not the values; later calls log nothing. Return the value and log it outside, or log from the device with `jax.debug.callback(lambda v: logger.info("%s", v), x)`',
                '`alog.warning` in traced `step` runs once, at trace time, and logs a tracer (e.g. `JitTracer(float32[])`), not the values; later calls log nothing. Return the value and log it outside, or log from the device with `jax.debug.callback(lambda v: alog.warning("%s", v), x)`',
                '`log.debug` in traced `body` runs once, at trace time, and logs a tracer (e.g. `JitTracer(float32[])`), not the values; later calls log nothing. Return the value and log it outside, or log from the device with `jax.debug.callback(lambda v: log.debug("%s", v), x)`',
            ],
        ),
        # a format spec on a tracer in an f-string (printed or logged; jitted, or
        # differentiated outside jit): the formatting raises at trace time
        Invalid(
            """
            import logging
            import jax
            import jax.numpy as jnp


            @jax.jit
            def f(x):
                logging.info(f"mean {x.mean():8.3f} of {x.shape[0]:d}")
                return x


            def loss(w):
                print(f"w {w.sum():.3f}")
                return (w ** 2).sum()


            f(jnp.ones(3))
            jax.grad(loss)(jnp.ones(3))
            """,
            expected=[(8, 5), (13, 5)],
            messages=[
                '`logging.info` in `f` formats the tracer `x.mean()` with `:8.3f` while JAX traces it: this raises `TypeError: unsupported format string passed to DynamicJaxprTracer.__format__` (a tracer has no value to format). Use `jax.debug.print("{:8.3f}", x.mean())` to print the runtime value',
                '`print` in `loss` formats the tracer `w.sum()` with `:.3f` while JAX traces it: this raises `TypeError: unsupported format string passed to LinearizeTracer.__format__` (a tracer has no value to format). Use `jax.debug.print("{:.3f}", w.sum())` to print the runtime value',
            ],
        ),
        # a profiler annotation in a `fori_loop` body, numbered by the loop's traced index:
        # entered once, while the body is traced, not once per iteration
        Invalid(
            """
            import jax


            def body_func(i, val):
                with jax.profiler.StepTraceAnnotation("body function step", step_num=i):
                    return val * (i + 1)


            def factorial(n):
                return jax.lax.fori_loop(0, n, body_func, 1)
            """,
            expected=[(5, 10)],
            messages=[
                "`jax.profiler.StepTraceAnnotation` in traced `body_func` runs once, at trace time, and annotates a tracer, not the values; compiled calls (and the iterations of a traced loop body) record nothing. Annotate outside the traced function (around the jitted call, once per step), or name the traced code with `jax.named_scope`",
            ],
        ),
    ]

    def _type_of_tracer(self, e: cst.CSTNode) -> bool:
        """`type(x)`, `type(x).__name__`, `x.__class__` of a tracer: the tracer's class."""
        ctx = self.ctx
        if isinstance(e, cst.Attribute) and e.attr.value in ("__name__", "__qualname__"):
            e = e.value
        if isinstance(e, cst.Attribute) and e.attr.value == "__class__":
            return ctx.is_tracer(e.value)
        return (isinstance(e, cst.Call) and ctx.builtin_name(e.func) == "type" and len(e.args) == 1
                and e.args[0].keyword is None and not e.args[0].star and ctx.is_tracer(e.args[0].value))

    def _mentions_traced(self, e: cst.CSTNode, depth: int = 0, types: bool = False) -> bool:
        """Does ``e`` show a tracer (with ``types``: or the class of one, `type(x)`)?"""
        ctx = self.ctx
        if depth > 6:
            return False
        if ctx.is_tracer(e) or ctx.holds_tracer(e):
            return True
        if types and self._type_of_tracer(e):
            return True
        if (isinstance(e, cst.Call) and ctx.builtin_name(e.func) in ("repr", "str", "ascii", "format")
                and e.args and e.args[0].keyword is None and not e.args[0].star):
            return self._mentions_traced(e.args[0].value, depth + 1, types)  # `print(repr(x))`
        if isinstance(e, cst.FormattedString):
            return any(
                isinstance(p, cst.FormattedStringExpression) and self._mentions_traced(p.expression, depth + 1, types)
                for p in e.parts
            )
        if isinstance(e, cst.ConcatenatedString):
            return self._mentions_traced(e.left, depth + 1, types) or self._mentions_traced(e.right, depth + 1, types)
        if isinstance(e, cst.Call) and isinstance(e.func, cst.Attribute) and e.func.attr.value == "format":
            return any(self._mentions_traced(a.value, depth + 1, types) for a in e.args)
        if isinstance(e, cst.BinaryOperation):
            return self._mentions_traced(e.left, depth + 1, types) or self._mentions_traced(e.right, depth + 1, types)
        if isinstance(e, (cst.Tuple, cst.List)):
            return any(self._mentions_traced(el.value, depth + 1, types) for el in e.elements)
        if isinstance(e, cst.Dict):  # `"%(a)s" % {"a": x}`
            return any(isinstance(el, cst.DictElement) and self._mentions_traced(el.value, depth + 1, types)
                       for el in e.elements)
        return False

    def visit_Call(self, node: cst.Call) -> None:
        ctx = self.ctx
        if not ctx.in_tracing:
            return
        if ctx.builtin_name(node.func) != "print" and ctx.qualname(node.func) != "builtins.print":
            writer = ctx.qualname(node.func)
            if writer in _WRITERS:
                self._writer_call(node, ctx.code(node.func).strip())
                return
            sink = self._log_sink(node.func)
            if sink is not None:
                self._log_call(node, sink)
                return
            if ctx.qualname(node.func) in _RECORDERS:
                self._recorder_call(node)
                return
            self._debug_print_format(node)
            return
        if not any(a.keyword is None and self._mentions_traced(a.value) for a in node.args):
            if (not ctx.concrete_tracers and not _eager_shard_map(ctx.unit)
                    and any(a.keyword is None and self._mentions_traced(a.value, types=True) for a in node.args)):
                self.report(
                    node,
                    f"`print` in traced `{ctx.unit.name}` runs once, at trace time, and the type it "
                    "prints is the tracer's class (e.g. `DynamicJaxprTracer`), not the type of the "
                    "array the call is given; later calls print nothing. Print the type outside the "
                    "traced function, or `jax.debug.print(\"{}\", x)` for the values",
                )
                return
            self._log_of_call_site_jit(node)
            return
        if _eager_shard_map(ctx.unit):
            return
        if self._formats_tracer(node, "`print`"):
            return
        if ctx.concrete_tracers:
            # jax.grad(f)(x) outside jit: f runs on every call, but with JVP tracers
            self.report(
                node,
                f"`print` in `{ctx.unit.name}`, {ctx.unit.grad_reasons[0]}, prints a tracer "
                "(e.g. `GradTracer(primal=1.0, ...)`), not the values: JAX differentiates it "
                "with tracers even outside jit. Use `jax.debug.print(\"{}\", x)` to print the values",
                self._fix(node),
            )
            return
        body_of = _body_outside_jit(ctx.unit)
        if body_of is not None:
            # lax.scan(body, ...) called outside jit: the body is traced on each such call
            # (a new closure each time), so "later calls print nothing" would be wrong
            each = (" (once for all its iterations)", "each iteration's values") \
                if any(loop in body_of for loop in _LOOPS) else ("", "the values")
            self.report(
                node,
                f"`print` in `{ctx.unit.name}`, a body passed to {body_of}, runs only while JAX "
                f"traces it{each[0]} and prints a tracer (e.g. `JitTracer(float32[])`), not "
                f"{each[1]}. Use `jax.debug.print(\"{{}}\", x)` to print runtime values",
                self._fix(node),
            )
            return
        if _jitted_itself(ctx.unit):
            self.report(
                node,
                f"`print` in traced `{ctx.unit.name}` runs once, at trace time, and prints a tracer "
                "(e.g. `JitTracer(float32[])`), not the values; later calls print nothing. "
                "Use `jax.debug.print(\"{}\", x)` to print runtime values",
                self._fix(node),
            )
            return
        # reached from traced code the rule cannot tie to one jit (a helper, a body of a
        # loop called in plain Python elsewhere): how often it is traced depends on its
        # callers, so the message does not promise "later calls print nothing" (multi-module
        # review 19, p05: a scan body outside jit calls it, and every call printed)
        self.report(
            node,
            f"`print` in traced `{ctx.unit.name}` runs only while JAX traces it and prints a "
            "tracer (e.g. `JitTracer(float32[])`), not the values; a call served from jit's "
            "cache prints nothing. Use `jax.debug.print(\"{}\", x)` to print runtime values",
            self._fix(node),
        )

    def _formats_tracer(self, node: cst.Call, sink: str) -> bool:
        """``print(f"min {jnp.min(d):.5e}")``: an f-string field with a format spec on a
        tracer fails at trace time (a tracer formats only with an empty spec): report the
        TypeError rather than a printed tracer."""
        for a in node.args:
            if a.keyword is not None or not isinstance(a.value, cst.FormattedString):
                continue
            for part in a.value.parts:
                if not isinstance(part, cst.FormattedStringExpression) or part.format_spec is None \
                        or part.conversion is not None or not self._mentions_traced(part.expression):
                    continue
                spec = "".join(self.ctx.code(x) for x in part.format_spec)
                if not spec:
                    continue
                kind = "LinearizeTracer" if self.ctx.concrete_tracers else "DynamicJaxprTracer"
                expr = self.ctx.code(part.expression).strip()
                self.report(
                    node,
                    f"{sink} in `{self.ctx.unit.name}` formats the tracer `{expr}` with `:{spec}` while "
                    f"JAX traces it: this raises `TypeError: unsupported format string passed to "
                    f"{kind}.__format__` (a tracer has no value to format). Use "
                    f"`jax.debug.print(\"{{:{spec}}}\", {expr})` to print the runtime value",
                    self._fix(node) if sink == "`print`" else None,
                )
                return True
        return False

    def _writer_call(self, node: cst.Call, sink: str) -> None:
        """``sys.stdout.write(f"loss {loss}")``, ``pprint.pprint(state)`` of a traced value
        in abstractly traced code: written once, at trace time, with the tracer's text."""
        ctx = self.ctx
        if ctx.concrete_tracers or _eager_shard_map(ctx.unit):
            return
        if not any(a.keyword is None and not a.star and self._mentions_traced(a.value) for a in node.args):
            return
        self.report(
            node,
            f"`{sink}` in traced `{ctx.unit.name}` runs only while JAX traces it and writes a tracer "
            "(e.g. `JitTracer(float32[])`), not the values; a call served from jit's cache writes "
            "nothing. Use `jax.debug.print(\"{}\", x)` to print runtime values",
        )

    def _log_sink(self, func: cst.BaseExpression) -> Optional[str]:
        """`logging.info`, absl's `logging.warning`, `logger.debug` with `logger` bound once to
        `logging.getLogger(...)` in this function, an enclosing one or the module: the
        name as written, else None."""
        if not isinstance(func, cst.Attribute) or func.attr.value not in _LOG_LEVELS:
            return None
        ctx = self.ctx
        q = ctx.qualname(func)
        if q is not None:
            return ctx.code(func).strip() if q.rsplit(".", 1)[0] in _LOGGING_MODULES else None
        base = func.value
        if not isinstance(base, cst.Name):
            return None
        u = ctx.unit
        while u is not None:
            binds = u.bindings.get(base.value)
            if binds:
                if len(binds) != 1:
                    return None
                value = binds[0][1]
                if isinstance(value, cst.Call) and ctx.qualname(value.func) in _GET_LOGGER:
                    return ctx.code(func).strip()
                return None
            u = u.parent
        return None

    def _log_call(self, node: cst.Call, sink: str) -> None:
        """`logging.info(loss)` / `logger.info("loss %s", loss)` of a traced value: the log
        call runs once, at trace time, and logs the tracer's text."""
        ctx = self.ctx
        if not any(a.keyword is None and not a.star and self._mentions_traced(a.value) for a in node.args):
            self._log_of_call_site_jit(node, sink)
            return
        if _eager_shard_map(ctx.unit):
            return
        if self._formats_tracer(node, f"`{sink}`") or self._log_formats_number(node, sink):
            return
        if not ctx.concrete_tracers and self._logs_own_inputs(node):
            return
        if ctx.concrete_tracers:
            self.report(
                node,
                f"`{sink}` in `{ctx.unit.name}`, {ctx.unit.grad_reasons[0]}, logs a tracer "
                "(e.g. `GradTracer(primal=1.0, ...)`), not the values: JAX differentiates it "
                "with tracers even outside jit. Log the values outside the transformed function, "
                "or hand them to `jax.debug.callback`",
            )
            return
        self.report(
            node,
            f"`{sink}` in traced `{ctx.unit.name}` runs once, at trace time, and logs a tracer "
            "(e.g. `JitTracer(float32[])`), not the values; later calls log nothing. Return the "
            "value and log it outside, or log from the device with "
            f"`jax.debug.callback(lambda v: {sink}(\"%s\", v), x)`",
        )

    def _own_input(self, e: cst.BaseExpression) -> bool:
        """Is ``e`` a parameter of the traced function, read as it was given (never
        rebound in the body)?"""
        unit = self.ctx.unit
        return isinstance(e, cst.Name) and unit.param(e.value) is not None and e.value not in unit.assigned

    def _text_shows_only_inputs(self, e: cst.BaseExpression) -> bool:
        """Is every tracer ``e`` shows one of the traced function's own parameters, as
        text (``str``/``repr``: ``x``, ``f"{x}"``, ``f"{x!r}"``, ``"%s" % (x,)``)?"""
        if not self._mentions_traced(e):
            return True
        if self._own_input(e):
            return True
        if isinstance(e, cst.FormattedString):
            return all(
                not isinstance(p, cst.FormattedStringExpression) or not self._mentions_traced(p.expression)
                or (self._own_input(p.expression) and not p.format_spec)
                for p in e.parts
            )
        if isinstance(e, cst.BinaryOperation) and isinstance(e.operator, cst.Modulo) \
                and isinstance(e.left, (cst.SimpleString, cst.ConcatenatedString)):
            values = [el.value for el in e.right.elements] if isinstance(e.right, cst.Tuple) else [e.right]
            return self._percent_shows_only_inputs(e.left, values)
        return False

    def _percent_shows_only_inputs(self, fmt: cst.BaseExpression, values: list) -> bool:
        """``"f(batch=%s)"`` given ``values``: each traced value is a parameter passed
        through unchanged, for a `%s`/`%r`/`%a` field (text, never a number)."""
        text = fmt.evaluated_value if isinstance(fmt, (cst.SimpleString, cst.ConcatenatedString)) else None
        if not isinstance(text, str) or any(isinstance(v, (cst.Dict, cst.StarredElement)) for v in values):
            return False
        kinds = _percent_kinds(text)
        if kinds is None or len(kinds) != len(values):
            return False
        return all(not self._mentions_traced(v) or (self._own_input(v) and k in "sra")
                   for k, v in zip(kinds, values))

    def _logs_own_inputs(self, node: cst.Call) -> bool:
        """``logging.info("train_step(batch=%s)", batch)`` in a jitted step: a log of the
        traced function's own inputs, as given, is a deliberate trace-time log: it runs
        once per trace, and the tracers' text (``JitTracer(float32[8,32])``) is the
        shape and dtype each compilation was made for.  A value computed in the body
        (``loss``), or an input formatted as a number, is not that log."""
        if any(a.star for a in node.args) or any(
                r.startswith("a body passed to") and any(w in r for w in _LOOPS) for r in self.ctx.unit.reasons):
            return False  # a loop body's parameters are each iteration's carry and element
        pos = [a.value for a in node.args if a.keyword is None]
        if not pos:
            return False
        if len(pos) == 1:
            return self._text_shows_only_inputs(pos[0])
        if self._mentions_traced(pos[0]):
            return False
        return self._percent_shows_only_inputs(pos[0], pos[1:])

    def _log_formats_number(self, node: cst.Call, sink: str) -> bool:
        """``logging.info("loss %.3f", loss)`` of a tracer: logging formats the message
        when a handler takes it, while JAX traces, and `%d`/`%f` of a tracer fail there
        (jax 0.10.2: ``TypeError: %d format: a real number is required, not
        DynamicJaxprTracer``; ``ConcretizationTypeError`` for `%f`): logging catches the
        error and writes ``--- Logging error ---`` with a traceback instead of the line."""
        if self.ctx.concrete_tracers:
            return False
        pos = [a.value for a in node.args if a.keyword is None and not a.star]
        if len(pos) < 2 or any(a.star for a in node.args) or self._mentions_traced(pos[0]):
            return False
        text = pos[0].evaluated_value if isinstance(pos[0], (cst.SimpleString, cst.ConcatenatedString)) else None
        kinds = _percent_kinds(text) if isinstance(text, str) else None
        if kinds is None or len(kinds) != len(pos) - 1:
            return False
        for kind, v in zip(kinds, pos[1:]):
            if not self._mentions_traced(v) or kind not in _NUMBER_ERRORS:
                continue
            self.report(
                node,
                f"`{sink}` in `{self.ctx.unit.name}` formats the tracer `{self.ctx.code(v).strip()}` "
                f"with `%{kind}` while JAX traces it: a tracer has no value to format, so this fails with "
                f"{_NUMBER_ERRORS[kind]} when the record is emitted, which logging catches and writes as "
                "`--- Logging error ---` instead of the line. Log it with `%s` (its shape and dtype), or the value with "
                "`jax.debug.print(\"{}\", x)`",
            )
            return True
        return False

    def _recorder_call(self, node: cst.Call) -> None:
        """``jax.profiler.StepTraceAnnotation("step", step_num=i)`` in a `fori_loop` body,
        ``jax.profiler.TraceAnnotation(f"step {i}")`` in a jitted step: a host-side recorder
        given a traced value runs once, at trace time, and records the tracer (keywords
        count: they are what such calls record)."""
        ctx = self.ctx
        if ctx.concrete_tracers or _eager_shard_map(ctx.unit):
            return
        if not any(not a.star and self._mentions_traced(a.value) for a in node.args):
            return
        q = ctx.qualname(node.func) or ""
        written = ctx.code(node.func).strip()
        instead = ("Annotate outside the traced function (around the jitted call, once per step), "
                   "or name the traced code with `jax.named_scope`")
        self.report(
            node,
            f"`{written}` in traced `{ctx.unit.name}` runs once, at trace time, and {_RECORDERS[q]} "
            "a tracer, not the values; compiled calls (and the iterations of a traced loop body) "
            f"record nothing. {instead}",
        )

    def _log_of_call_site_jit(self, node: cst.Call, sink: str = "print") -> None:
        """``print("Executing function")`` in a plain (undecorated) function that the file
        jits where it calls it, at several places (``jit(f)(4.)`` ... ``jit(f)(5.)``, The
        Sharp Bits): written for a Python function that prints on every call, it prints
        only when JAX traces; the calls served from the cache print nothing.  A print
        that says it is tracing or compiling is a deliberate trace-time log."""
        ctx = self.ctx
        unit = ctx.unit
        fn = unit.node
        if not isinstance(fn, cst.FunctionDef) or not unit.reasons:
            return
        if unit.parent is None or not unit.parent.is_module or unit.cls is not None:
            return  # (a method: `jax.jit(obj.f)` wraps a new bound method each time, and traces again)
        if fn.decorators:
            # `@jit def f` that the project calls again (two calls one after the other, in
            # a loop, from another module): the cached calls print nothing
            if not unit.jitted_itself or not ctx.runs_repeatedly(unit):
                return
            how = "and the project calls again"
        elif not all(r in ("wrapped by jax.jit", "wrapped by jax.pjit") for r in unit.reasons):
            return
        elif unit.traced_calls >= 2:
            how = f"where it calls it ({unit.traced_calls} times)"
        else:
            alias = self._jit_alias_called_repeatedly(unit)
            if alias is None:
                return
            how = f"as `{alias}`, called in a loop"
        texts = []
        for a in node.args:
            if a.keyword is not None or a.star or not isinstance(a.value, cst.SimpleString):
                return
            texts.append(str(a.value.evaluated_value).lower())
        if not texts or any(w in t for t in texts for w in ("compil", "trac", "jit")):
            return
        if sink == "print":
            said = "the first call prints, later calls served from the compilation cache print nothing. " \
                   "Use `jax.debug.print(...)` to print on every call, or print outside the jitted function"
        else:
            said = "the first call logs, later calls served from the compilation cache log nothing. " \
                   "Log outside the jitted function, or from the device with `jax.debug.callback`"
        self.report(node, f"`{sink}` in `{unit.name}`, which this file jits {how}, runs only while JAX traces it: {said}")

    def _jit_alias_called_repeatedly(self, unit) -> Optional[str]:
        """A module-level name bound once to ``jax.jit(<unit>)`` that the file calls in
        a loop or a comprehension."""
        ctx = self.ctx
        for name, entries in ctx.index.module_unit.bindings.items():
            if len(entries) != 1:
                continue
            value = entries[0][1]
            if not isinstance(value, cst.Call) or ctx.qualname(value.func) not in ("jax.jit", "jax.pjit"):
                continue
            first = value.args[0].value if value.args and value.args[0].keyword is None else None
            if isinstance(first, cst.Name) and first.value == unit.name \
                    and called_repeatedly(ctx.index.module, name):
                return name
        return None

    def _debug_print_format(self, node: cst.Call) -> None:
        """``jax.debug.print(f"{x}")``: the f-string (or ``"...".format(x)``, ``%``) is
        formatted by Python before `jax.debug.print` sees it, at trace time, with the
        tracer: the output is the tracer's text, not the values."""
        ctx = self.ctx
        if not node.args or node.args[0].keyword is not None or node.args[0].star:
            return
        fmt = node.args[0].value
        if ctx.qualname(node.func) == "jax.debug.print":
            for a in node.args[1:]:
                if not a.star and self._stringifies_tracer(a.value):
                    self._report_text_argument(a.value)
        if not isinstance(fmt, cst.FormattedString) and not (
                isinstance(fmt, cst.Call) and isinstance(fmt.func, cst.Attribute)
                and fmt.func.attr.value == "format") and not (
                isinstance(fmt, cst.BinaryOperation) and isinstance(fmt.operator, cst.Modulo)
                and isinstance(fmt.left, (cst.SimpleString, cst.ConcatenatedString))):
            return
        if ctx.qualname(node.func) != "jax.debug.print":
            return
        if isinstance(fmt, cst.BinaryOperation):
            if not self._mentions_traced(fmt.right):
                return
        elif not self._mentions_traced(fmt):
            return
        shown = "GradTracer(primal=1.0, ...)" if ctx.concrete_tracers else "JitTracer(float32[])"
        self.report(
            fmt,
            f"the format string of `jax.debug.print` in `{ctx.unit.name}` is formatted by Python "
            "before JAX sees it, with the tracer: it prints the tracer's text (e.g. "
            f"`{shown}`), not the values. Write the placeholders for "
            "`jax.debug.print` to fill: `jax.debug.print(\"{}\", x)` (`{x}` in a plain string "
            "with `x=x`)",
            self._format_fix(node, fmt),
        )

    def _report_text_argument(self, arg: cst.BaseExpression) -> None:
        """``jax.debug.print("{}", "mean %s" % x)``: the argument is text Python made
        from the tracer at trace time; jax.debug.print prints that text."""
        ctx = self.ctx
        shown = "GradTracer(primal=1.0, ...)" if ctx.concrete_tracers else "JitTracer(float32[])"
        self.report(
            arg,
            f"an argument of `jax.debug.print` in `{ctx.unit.name}` is text Python formats "
            "at trace time, with the tracer: it prints the tracer's text (e.g. "
            f"`{shown}`), not the values. Pass the value itself and put the placeholder "
            "in the format string: `jax.debug.print(\"mean {}\", x)`",
        )

    def _format_fix(self, node: cst.Call, fmt: cst.BaseExpression):
        """``jax.debug.print(f"x={x}")`` -> ``jax.debug.print("x={}", x)``: only for an
        f-string with no other argument (they would fill or miss the placeholders)."""
        if len(node.args) != 1 or not isinstance(fmt, cst.FormattedString):
            return None
        self._statics: list[tuple[str, str, str]] = []
        got = self._fstring(fmt)
        if got is None:
            return None
        text, args = got
        literal = _format_literal(text, self._statics)
        if literal is None:
            return None
        new = f"{self.ctx.code(node.func).strip()}({', '.join([literal] + args)})"
        return fix(Applicability.UNSAFE, "Let `jax.debug.print` fill the placeholders",
                   Replacement(node, new))

    def _fix(self, node: cst.Call):
        ctx = self.ctx
        alias = self.module_alias("jax")
        if alias is None or not node.args:
            return None
        pieces: list[str] = []
        args: list[str] = []
        self._statics = []
        for a in node.args:
            if a.keyword is not None or a.star:
                return None
            v = a.value
            if self._static_value(v):
                # `x.shape`, `len(xs)`, `3`: Python prints it as `print` did (`(3,)`);
                # an argument of jax.debug.print would become an array
                pieces.append(self._static_field(v, "", ""))
            elif isinstance(v, cst.SimpleString):
                prefix = v.prefix.lower()
                if "b" in prefix:
                    return None
                try:
                    text = ast.literal_eval(v.value)
                except (ValueError, SyntaxError):
                    return None
                pieces.append(text.replace("{", "{{").replace("}", "}}"))
            elif isinstance(v, cst.FormattedString):
                got = self._fstring(v)
                if got is None:
                    return None
                pieces.append(got[0])
                args.extend(got[1])
            elif isinstance(v, cst.ConcatenatedString):
                return None
            elif self._formats_text(v):
                # `print("mean %s" % x)`, `print("val {}".format(x))`: the placeholders
                # become jax.debug.print's own, filled with the values (never the
                # string Python would format with the tracer)
                got = self._format_call(v)
                if got is None:
                    return None
                pieces.append(got[0])
                args.extend(got[1])
            elif (isinstance(v, cst.Call) and ctx.builtin_name(v.func) in _CONVERSIONS
                  and len(v.args) == 1 and v.args[0].keyword is None and not v.args[0].star):
                # `print(repr(x))`: the conversion is jax.debug.print's to do, on the values
                pieces.append(_CONVERSIONS[ctx.builtin_name(v.func)])
                args.append(ctx.code(v.args[0].value).strip())
            elif self._stringifies_tracer(v):
                return None  # `"a" + str(x)`: no form that leaves the formatting to JAX
            else:
                pieces.append("{}")
                args.append(ctx.code(v).strip())
        fmt = _format_literal(" ".join(pieces), self._statics)
        if fmt is None:
            return None  # JAX would print the format raw (see `_prints_as_written`)
        new = f"{alias}.debug.print({', '.join([fmt] + args)})"
        return fix(Applicability.UNSAFE, "Replace with `jax.debug.print`", Replacement(node, new))

    def _static_value(self, v: cst.BaseExpression) -> bool:
        """A value that is plain Python under a trace: an array's ``.shape``, ``.ndim``,
        ``.dtype`` (and an index of its shape), ``len(...)``, a number literal."""
        if isinstance(v, (cst.Integer, cst.Float)):
            return True
        if isinstance(v, cst.UnaryOperation) and isinstance(v.operator, cst.Minus):
            return isinstance(v.expression, (cst.Integer, cst.Float))
        if isinstance(v, cst.Attribute):
            return v.attr.value in _STATIC_ATTRS
        if isinstance(v, cst.Subscript):
            return isinstance(v.value, cst.Attribute) and v.value.attr.value == "shape"
        return (isinstance(v, cst.Call) and self.ctx.builtin_name(v.func) == "len"
                and len(v.args) == 1 and v.args[0].keyword is None and not v.args[0].star)

    def _static_field(self, v: cst.BaseExpression, conv: str, spec: str) -> str:
        self._statics.append((self.ctx.code(v).strip(), conv, spec))
        return f"\x00{len(self._statics) - 1}\x00"

    @staticmethod
    def _formats_text(v: cst.BaseExpression) -> bool:
        """``"..." % args`` or ``"...".format(...)`` on a plain string literal."""
        if isinstance(v, cst.BinaryOperation) and isinstance(v.operator, cst.Modulo):
            return isinstance(v.left, cst.SimpleString)
        return (isinstance(v, cst.Call) and isinstance(v.func, cst.Attribute)
                and v.func.attr.value == "format" and isinstance(v.func.value, cst.SimpleString))

    def _stringifies_tracer(self, v: cst.BaseExpression) -> bool:
        """Is ``v`` text Python makes from a traced value at trace time (an f-string,
        ``%``, ``.format``, ``str(x)``, ``"a" + str(x)``)?"""
        ctx = self.ctx
        literal_text = (isinstance(v, (cst.FormattedString, cst.ConcatenatedString)) or self._formats_text(v)
                        or (isinstance(v, cst.BinaryOperation)
                            and isinstance(v.left, (cst.SimpleString, cst.FormattedString, cst.ConcatenatedString))))
        if not literal_text and ctx.is_tracer(v):
            return False  # `x % 2`: an array
        textual = (literal_text
                   or (isinstance(v, cst.Call) and (ctx.builtin_name(v.func) in ("repr", "str", "ascii", "format")
                                                    or (isinstance(v.func, cst.Attribute) and v.func.attr.value == "format")))
                   or (isinstance(v, cst.BinaryOperation) and isinstance(v.operator, (cst.Add, cst.Modulo))
                       and (self._stringifies_tracer(v.left) or self._stringifies_tracer(v.right)
                            or isinstance(v.left, (cst.SimpleString, cst.FormattedString)))))
        return textual and self._mentions_traced(v)

    def _format_call(self, v: cst.BaseExpression) -> Optional[tuple[str, list[str]]]:
        """``"mean %s" % x`` / ``"val {}".format(x)`` -> ("mean {}", ["x"]): the
        format string for jax.debug.print (auto-numbered fields) and its arguments;
        None when there is no such plain form."""
        ctx = self.ctx
        if isinstance(v, cst.BinaryOperation):
            lit = v.left
        else:
            assert isinstance(v, cst.Call) and isinstance(v.func, cst.Attribute)
            lit = v.func.value
        assert isinstance(lit, cst.SimpleString)
        if "b" in lit.prefix.lower():
            return None
        try:
            text = ast.literal_eval(lit.value)
        except (ValueError, SyntaxError):
            return None
        out: list[str] = []
        args: list[str] = []
        if isinstance(v, cst.BinaryOperation):
            fields = _percent_fields(text)
            if fields is None:
                return None
            right = v.right
            if isinstance(right, cst.Tuple):
                if any(isinstance(el, cst.StarredElement) for el in right.elements):
                    return None
                values = [el.value for el in right.elements]
            elif isinstance(right, (cst.Dict, cst.List)) or len(fields) != 2:
                return None  # one value for several fields is a tuple we cannot see into
            else:
                values = [right]
            if len(values) != len(fields) - 1:
                return None
            for (before, field), value in zip(fields, values + [None]):
                out.append(before.replace("{", "{{").replace("}", "}}"))
                if field is not None and self._static_value(value):
                    body = field[1:-1]  # `{!r:>5}` -> conversion and spec
                    conv = body[1:2] if body.startswith("!") else ""
                    out.append(self._static_field(value, conv, body.partition(":")[2]))
                elif field is not None:
                    out.append(field)
                    args.append(ctx.code(value).strip())
            return "".join(out), args
        positional: list[cst.BaseExpression] = []
        keywords: dict[str, cst.BaseExpression] = {}
        for a in v.args:
            if a.star:
                return None
            if a.keyword is None:
                positional.append(a.value)
            else:
                keywords[a.keyword.value] = a.value
        auto = 0
        used: set[int] = set()
        try:
            parsed = list(string.Formatter().parse(text))
        except ValueError:
            return None
        for before, name, spec, conv in parsed:
            out.append(before.replace("{", "{{").replace("}", "}}"))
            if name is None:
                continue
            if spec and "{" in spec:
                return None  # a nested field
            if name == "":
                key: object = auto
                auto += 1
            elif name.isdigit():
                key = int(name)
            elif name.isidentifier():
                key = name
            else:
                return None  # `{0.shape}`, `{x[0]}`: keep it as it is
            if isinstance(key, int):
                if key >= len(positional):
                    return None
                value = positional[key]
                if key in used and not isinstance(value, cst.Name):
                    return None  # an expression would be evaluated twice
                used.add(key)
            else:
                if key not in keywords:
                    return None
                value = keywords[key]
            if self._static_value(value):
                out.append(self._static_field(value, conv or "", spec or ""))
                continue
            out.append("{" + (f"!{conv}" if conv else "") + (f":{spec}" if spec else "") + "}")
            args.append(ctx.code(value).strip())
        return "".join(out), args

    def _fstring(self, v: cst.FormattedString) -> Optional[tuple[str, list[str]]]:
        if v.prefix.lower() != "f":
            return None
        quote = v.start[len(v.prefix):]
        out: list[str] = []
        args: list[str] = []
        for p in v.parts:
            if isinstance(p, cst.FormattedStringText):
                try:
                    out.append(ast.literal_eval(quote + p.value + quote))
                except (ValueError, SyntaxError):
                    return None
                continue
            assert isinstance(p, cst.FormattedStringExpression)
            if p.equal is not None:
                return None
            field = "{"
            if p.conversion:
                field += "!" + p.conversion
            if p.format_spec:
                spec = []
                for sp in p.format_spec:
                    if not isinstance(sp, cst.FormattedStringText):
                        return None
                    spec.append(sp.value)
                field += ":" + "".join(spec)
            if self._static_value(p.expression):  # `{x.shape}`: Python formats it
                out.append(self._static_field(p.expression, p.conversion or "",
                                              field.partition(":")[2]))
                continue
            out.append(field + "}")
            args.append(self.ctx.code(p.expression).strip())
        return "".join(out), args
