"""JAX401-JAX406: side effects and hidden state in traced code.

JAX traces a function once per input signature and replays the recorded
computation afterwards.  Python side effects (printing, writing globals,
mutating objects and outer containers, drawing from a stateful RNG) happen
once, at trace time, and the values they see are tracers, not numbers.
"""

from __future__ import annotations

import ast
from typing import Optional

import libcst as cst

from jaxlint.findings import Applicability, Severity
from jaxlint.model import values as V
from jaxlint.model.units import Unit
from jaxlint.model.walk import children
from jaxlint.engine.rule import Invalid, Replacement, Rule, Valid, fix

_OWN_TRACE_REASONS = ("decorated with", "wrapped by", "a body passed to")


def _own_trace(unit: Unit) -> bool:
    """The unit is traced by a transformation of its own (not only as a helper
    running inside its caller's trace)."""
    return any(r.startswith(_OWN_TRACE_REASONS) for r in unit.reasons)


def _binds(u: Unit, name: str) -> bool:
    return (name in u.assigned or u.param(name) is not None) and name not in u.global_names


def _owner(unit: Unit, name: str) -> Optional[Unit]:
    """The enclosing unit whose local ``name`` is (None: the module)."""
    u = unit.parent
    while u is not None and not u.is_module:
        if _binds(u, name) and name not in u.nonlocal_names:
            return u
        u = u.parent
    return None


def _escapes(unit: Unit, owner: Optional[Unit]) -> bool:
    """Does a value stored from ``unit`` into a variable of ``owner`` outlive
    the trace that produced it?"""
    if owner is None or not owner.traced or owner.host:
        return True
    u: Optional[Unit] = unit
    while u is not None and u is not owner:
        if _own_trace(u):
            return True
        u = u.parent
    return False


def _jax_alias(ctx) -> Optional[str]:
    for local, q in ctx.imports.names.items():
        if q == "jax":
            return local
    return None


def _target_names(target: cst.CSTNode) -> list[cst.Name]:
    if isinstance(target, cst.Name):
        return [target]
    if isinstance(target, (cst.Tuple, cst.List)):
        out: list[cst.Name] = []
        for el in target.elements:
            out.extend(_target_names(el.value))
        return out
    if isinstance(target, cst.StarredElement):
        return _target_names(target.value)
    return []


def _assign_pairs(node: cst.CSTNode) -> list[tuple[cst.CSTNode, cst.BaseExpression]]:
    if isinstance(node, cst.Assign):
        return [(t.target, node.value) for t in node.targets]
    if isinstance(node, (cst.AugAssign, cst.AnnAssign)) and node.value is not None:
        return [(node.target, node.value)]
    return []


# --------------------------------------------------------------------------- JAX401
def _str_literal(text: str) -> str:
    if '"' not in text and "\\" not in text and text.isprintable():
        return f'"{text}"'
    return repr(text)


class PrintInTraced(Rule):
    code = "JAX401"
    name = "print-in-traced-code"
    summary = "`print()` of a traced value runs once at trace time and shows a tracer, not the numbers"
    severity = Severity.ERROR
    fix_availability = "sometimes"
    seed = "The Sharp Bits § Pure functions (seed 000); tutorial § jit and side effects (seed 002)"
    what_it_does = (
        "Flags the builtin `print(...)` inside code that JAX traces (`jit`, `vmap`, `lax.scan` "
        "bodies, helpers they call) when an argument is a traced value: a non-static "
        "argument or anything JAX computed from one, also inside an f-string or "
        "`str.format`. Prints of static values only (`x.shape`, `x.dtype`, literal strings, "
        "static arguments) are not flagged: they are a deliberate trace-time log, printed "
        "once per compilation."
    )
    why_bad = (
        "`print` is a Python side effect. It runs while JAX traces the function, once per new "
        "input shape/dtype, and what it prints is the abstract tracer:\n\n"
        "```\nprint: JitTracer(~int32[])\n```\n\n"
        "Later calls hit the compilation cache and print nothing at all, so the output "
        "neither shows the values nor appears on every call. No error or warning is given."
    )
    example = "```python\n@jax.jit\ndef f(x):\n    y = jnp.sin(x)\n    print(\"y =\", y)\n    return y\n```"
    use_instead = (
        "`jax.debug.print` is staged into the computation and prints the runtime values on every "
        "call (once per element under `vmap`):\n\n"
        "```python\n@jax.jit\ndef f(x):\n    y = jnp.sin(x)\n    jax.debug.print(\"y = {}\", y)\n    return y\n```"
    )
    fix_safety = (
        "When the module imports `jax` as a name, the fix rewrites `print(a, b)` to "
        "`jax.debug.print(\"{} {}\", a, b)` (string literals are folded into the format "
        "string; a single f-string becomes a format string with its expressions as arguments; "
        "`jax` is spelled with the module's alias). It is **unsafe**: the output changes "
        "(values instead of tracers, printed on every call and asynchronously, array "
        "formatting differs), and `print` keywords (`sep=`, `end=`, `file=`) have no "
        "equivalent, so calls using them are not rewritten."
    )
    VALID = [
        # jax.debug.print in jit
        Valid("import jax\nimport jax.numpy as jnp\n\n@jax.jit\ndef f(x):\n    y = jnp.sin(x)\n    jax.debug.print(\"y = {}\", y)\n    return y\n"),
        # print outside traced code
        Valid("import jax\nimport jax.numpy as jnp\n\ndef report(x):\n    print(\"mean:\", jnp.mean(x))\n\nreport(jnp.ones(3))\n"),
        # static values only: shapes, dtypes, literal strings, static args
        Valid("from functools import partial\nimport jax\n\n@partial(jax.jit, static_argnums=1)\ndef f(x, n):\n    print(\"tracing f with\", x.shape, x.dtype, n)\n    print(f\"shape={x.shape}\")\n    return x * n\n"),
        # host callbacks see concrete values
        Valid("import jax\n\ndef log(v):\n    print(\"value\", v)\n\n@jax.jit\ndef f(x):\n    jax.debug.callback(log, x)\n    return x\n"),
        # a local function named print
        Valid("import jax\n\ndef print(*args):\n    pass\n\n@jax.jit\ndef f(x):\n    print(x)\n    return x\n"),
    ]
    INVALID = [
        Invalid(
            "import jax\nimport jax.numpy as jnp\n\n@jax.jit\ndef f(x):\n    y = jnp.sin(x)\n    print(\"y =\", y)\n    return y\n",
            expected=[(7, 5)],
            fixed="import jax\nimport jax.numpy as jnp\n\n@jax.jit\ndef f(x):\n    y = jnp.sin(x)\n    jax.debug.print(\"y = {}\", y)\n    return y\n",
            unsafe=True,
            message_contains="jax.debug.print",
        ),
        Invalid(
            "import jax as jx\n\ndef body(carry, x):\n    print(f\"carry={carry:.3f} x={x!r}\")\n    return carry + x, x\n\nout = jx.lax.scan(body, 0.0, jx.numpy.arange(3.0))\n",
            expected=[(4, 5)],
            fixed="import jax as jx\n\ndef body(carry, x):\n    jx.debug.print(\"carry={:.3f} x={!r}\", carry, x)\n    return carry + x, x\n\nout = jx.lax.scan(body, 0.0, jx.numpy.arange(3.0))\n",
            unsafe=True,
        ),
        # no `jax` name imported: reported without a fix
        Invalid(
            "from jax import jit\n\n@jit\ndef f(x):\n    print(x, sep=\", \")\n    return x * 2\n",
            expected=[(5, 5)],
        ),
    ]

    def _mentions_traced(self, e: cst.CSTNode, depth: int = 0) -> bool:
        ctx = self.ctx
        if depth > 6:
            return False
        if ctx.is_traced(e):
            return True
        if isinstance(e, cst.FormattedString):
            return any(
                isinstance(p, cst.FormattedStringExpression) and self._mentions_traced(p.expression, depth + 1)
                for p in e.parts
            )
        if isinstance(e, cst.ConcatenatedString):
            return self._mentions_traced(e.left, depth + 1) or self._mentions_traced(e.right, depth + 1)
        if isinstance(e, cst.Call) and isinstance(e.func, cst.Attribute) and e.func.attr.value == "format":
            return any(self._mentions_traced(a.value, depth + 1) for a in e.args)
        if isinstance(e, cst.BinaryOperation):
            return self._mentions_traced(e.left, depth + 1) or self._mentions_traced(e.right, depth + 1)
        if isinstance(e, (cst.Tuple, cst.List)):
            return any(self._mentions_traced(el.value, depth + 1) for el in e.elements)
        return False

    def visit_Call(self, node: cst.Call) -> None:
        ctx = self.ctx
        if not ctx.in_traced or ctx.builtin_name(node.func) != "print":
            return
        if not any(a.keyword is None and self._mentions_traced(a.value) for a in node.args):
            return
        self.report(
            node,
            f"`print` in traced `{ctx.unit.name}` runs once, at trace time, and prints a tracer "
            "(e.g. `JitTracer(float32[])`), not the values; later calls print nothing. "
            "Use `jax.debug.print(\"{}\", x)` to print runtime values",
            self._fix(node),
        )

    def _fix(self, node: cst.Call):
        ctx = self.ctx
        alias = _jax_alias(ctx)
        if alias is None or not node.args:
            return None
        pieces: list[str] = []
        args: list[str] = []
        for a in node.args:
            if a.keyword is not None or a.star:
                return None
            v = a.value
            if isinstance(v, cst.SimpleString):
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
            else:
                pieces.append("{}")
                args.append(ctx.code(v).strip())
        fmt = _str_literal(" ".join(pieces))
        new = f"{alias}.debug.print({', '.join([fmt] + args)})"
        return fix(Applicability.UNSAFE, "Replace with `jax.debug.print`", Replacement(node, new))

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
            out.append(field + "}")
            args.append(self.ctx.code(p.expression).strip())
        return "".join(out), args


# --------------------------------------------------------------------------- JAX402
class GlobalWriteInTraced(Rule):
    code = "JAX402"
    name = "global-write-in-traced-code"
    summary = "A traced value stored in a `global` or `nonlocal` variable leaks a tracer"
    severity = Severity.ERROR
    seed = "The Sharp Bits § Pure functions (seed 000); FAQ § UnexpectedTracerError (seed 001)"
    what_it_does = (
        "Flags assignments to names declared `global`, or `nonlocal` to a function outside "
        "the trace, inside traced code, when the assigned value is a tracer. Writes of "
        "Python values (`global calls; calls += 1` to count traces, lazy caches of static "
        "objects) are left alone, and so are `nonlocal` writes into an enclosing function "
        "that is traced by the same transformation."
    )
    why_bad = (
        "The global receives the tracer that existed while the function was traced, not a "
        "value. Nothing fails at that point; the first later use of the global raises:\n\n"
        "```\njax.errors.UnexpectedTracerError: Encountered an unexpected tracer. A function "
        "transformed by JAX had a side effect, allowing for a reference to an intermediate "
        "value with type float32[] wrapped in a DynamicJaxprTracer to escape the scope of the "
        "transformation.\n```\n\n"
        "and calls that hit the compilation cache do not assign at all."
    )
    example = "```python\nlast = None\n\n@jax.jit\ndef step(x):\n    global last\n    last = x * 2\n    return last\n```"
    use_instead = "Return the value and store it outside the traced function:\n\n```python\n@jax.jit\ndef step(x):\n    y = x * 2\n    return y, y\n\nout, last = step(x)\n```"
    fix_safety = "No automatic fix: the function's outputs have to change."
    VALID = [
        # counting traces with a Python int is a deliberate trace-time effect
        Valid("import jax\n\nn_traces = 0\n\n@jax.jit\ndef f(x):\n    global n_traces\n    n_traces += 1\n    return x * 2\n"),
        # nonlocal write inside the same trace
        Valid("import jax\nimport jax.numpy as jnp\n\n@jax.jit\ndef f(x):\n    total = jnp.zeros_like(x)\n    def add(v):\n        nonlocal total\n        total = total + v\n    add(x)\n    add(2 * x)\n    return total\n"),
        # global write outside traced code
        Valid("import jax.numpy as jnp\n\nstate = None\n\ndef update(x):\n    global state\n    state = jnp.sin(x)\n"),
    ]
    INVALID = [
        Invalid(
            "import jax\n\nlast = None\n\n@jax.jit\ndef step(x):\n    global last\n    last = x * 2\n    return last\n",
            expected=[(8, 5)],
            message_contains="UnexpectedTracerError",
        ),
        Invalid(
            "import jax\nfrom jax import lax\n\ndef run(xs):\n    seen = None\n    def body(c, x):\n        nonlocal seen\n        seen = x\n        return c + x, None\n    return lax.scan(body, 0.0, xs), seen\n",
            expected=[(8, 9)],
        ),
    ]

    def _check(self, node: cst.CSTNode) -> None:
        ctx = self.ctx
        unit = ctx.unit
        if not ctx.in_traced or not (unit.global_names or unit.nonlocal_names):
            return
        for target, value in _assign_pairs(node):
            if not ctx.is_traced(value) and not (isinstance(node, cst.AugAssign) and ctx.is_traced(target)):
                continue
            for name in _target_names(target):
                n = name.value
                if n in unit.global_names:
                    kind = "global"
                elif n in unit.nonlocal_names and _escapes(unit, _owner(unit, n)):
                    kind = "nonlocal"
                else:
                    continue
                self.report(
                    name,
                    f"`{n}` is {kind}: assigning it a traced value inside `{unit.name}` leaks the "
                    "tracer out of the trace; using it afterwards raises UnexpectedTracerError, and "
                    "cached calls never assign it. Return the value instead",
                )

    def visit_Assign(self, node: cst.Assign) -> None:
        self._check(node)

    def visit_AugAssign(self, node: cst.AugAssign) -> None:
        self._check(node)

    def visit_AnnAssign(self, node: cst.AnnAssign) -> None:
        self._check(node)


# --------------------------------------------------------------------------- JAX403
_INIT_METHODS = frozenset({"__init__", "__post_init__", "__new__", "__setattr__", "setup", "__setstate__"})


class SelfMutationInTraced(Rule):
    code = "JAX403"
    name = "self-mutation-in-traced-method"
    summary = "`self.attr = ...` / `self.n += 1` in a traced method runs once per trace, not per call"
    severity = Severity.ERROR
    seed = "tutorial § jit and stateful classes (seed 002); The Sharp Bits § Pure functions (seed 000)"
    what_it_does = (
        "Flags augmented assignments to `self.<attr>` (`self.n += 1`) and assignments of traced "
        "values or of an update of the same attribute (`self.total = self.total + x`) inside "
        "a method that JAX traces (`jax.jit(obj.method)`, `@partial(jax.jit, "
        "static_argnums=0)`, helpers called from such methods). Constructors and flax/"
        "equinox/haiku modules (frozen, or with their own state handling) are not flagged."
    )
    why_bad = (
        "The method body runs once, while it is traced; the compiled function does not contain "
        "the attribute update. A counter advances once and then never again: a jitted "
        "`count()` that does `self.n += 1; return self.n` returns `0, 0, 0` where the Python "
        "version returns `0, 2, 4`, and `counter.n` stays at 1. Storing a traced value in "
        "`self` leaks the tracer: reading it later raises `jax.errors.UnexpectedTracerError`."
    )
    example = "```python\nclass Counter:\n    def __init__(self):\n        self.n = 0\n\n    def count(self):\n        self.n += 1\n        return self.n\n\nfast_count = jax.jit(Counter().count)\n```"
    use_instead = "Keep the state outside and pass it through:\n\n```python\n@jax.jit\ndef count(n):\n    n = n + 1\n    return n, n\n```"
    fix_safety = "No automatic fix: the state has to become an argument and an output."
    VALID = [
        Valid("import jax\n\nclass Model:\n    def __init__(self, w):\n        self.w = w\n        self.calls = 0\n\n    def apply(self, x):\n        return x @ self.w\n\nf = jax.jit(Model(1.0).apply)\n"),
        # flax modules handle their own state
        Valid("import flax.linen as nn\nimport jax\n\nclass Block(nn.Module):\n    def setup(self):\n        self.dense = nn.Dense(3)\n\n    def __call__(self, x: jax.Array):\n        return self.dense(x)\n"),
        # not traced
        Valid("class Counter:\n    def __init__(self):\n        self.n = 0\n\n    def count(self):\n        self.n += 1\n        return self.n\n"),
    ]
    INVALID = [
        Invalid(
            "import jax\n\nclass Counter:\n    def __init__(self):\n        self.n = 0\n\n    def count(self):\n        self.n += 1\n        return self.n\n\ncounter = Counter()\nfast_count = jax.jit(counter.count)\n",
            expected=[(8, 9)],
            message_contains="once",
        ),
        Invalid(
            "from functools import partial\nimport jax\n\nclass Acc:\n    def __init__(self):\n        self.total = 0.0\n\n    @partial(jax.jit, static_argnums=0)\n    def add(self, x):\n        self.total = self.total + x\n        return self.total\n",
            expected=[(10, 9)],
        ),
    ]

    def _method_self(self) -> Optional[str]:
        unit = self.ctx.unit
        if not self.ctx.in_traced or unit.cls is None or unit.cls.is_jax_module:
            return None
        if unit.name in _INIT_METHODS or not isinstance(unit.node, cst.FunctionDef):
            return None
        pos = unit.positional()
        if not pos or pos[0].name != "self":
            return None
        return "self"

    def _check(self, node: cst.CSTNode) -> None:
        me = self._method_self()
        if me is None:
            return
        ctx = self.ctx
        for target, value in _assign_pairs(node):
            if not (isinstance(target, cst.Attribute) and isinstance(target.value, cst.Name) and target.value.value == me):
                continue
            attr = target.attr.value
            if isinstance(node, cst.AugAssign):
                why = "the update runs once, at trace time: compiled calls never repeat it"
            elif ctx.is_traced(value):
                why = "it stores a tracer in the object (UnexpectedTracerError when read later), and compiled calls never repeat it"
            elif _reads_attr(value, me, attr):
                why = "the update runs once, at trace time: compiled calls never repeat it"
            else:
                continue
            self.report(
                target,
                f"`{me}.{attr}` is assigned inside traced method `{ctx.unit.name}`: {why}. "
                "Pass the state in as an argument and return the new state",
            )

    def visit_Assign(self, node: cst.Assign) -> None:
        self._check(node)

    def visit_AugAssign(self, node: cst.AugAssign) -> None:
        self._check(node)

    def visit_AnnAssign(self, node: cst.AnnAssign) -> None:
        self._check(node)


def _reads_attr(e: cst.CSTNode, me: str, attr: str) -> bool:
    stack = [e]
    while stack:
        n = stack.pop()
        if isinstance(n, cst.Attribute) and isinstance(n.value, cst.Name) and n.value.value == me and n.attr.value == attr:
            return True
        if isinstance(n, (cst.Lambda, cst.FunctionDef)):
            continue
        stack.extend(children(n))
    return False


# --------------------------------------------------------------------------- JAX404
_MUTATORS = frozenset({"append", "extend", "insert", "update", "setdefault", "add", "appendleft", "extendleft"})


class OuterContainerMutation(Rule):
    code = "JAX404"
    name = "outer-container-mutation-in-traced-code"
    summary = "Appending/storing a traced value into a list or dict from outside the trace leaks the tracer"
    severity = Severity.ERROR
    seed = "The Sharp Bits § Pure functions (seed 000); FAQ § UnexpectedTracerError (seed 001)"
    what_it_does = (
        "Flags `outer.append(v)`, `.extend`, `.insert`, `.update`, `.setdefault`, `.add` and "
        "`outer[k] = v` inside traced code when `outer` is a list, dict or set created outside "
        "the trace (a module global, or a variable of an enclosing function that is not traced "
        "by the same transformation; a `lax.scan`/`cond` body writing into its enclosing "
        "function's list counts) and the stored value is a tracer. Building a local list and "
        "`jnp.stack`-ing it, or appending Python values (trace counters), is not flagged."
    )
    why_bad = (
        "The list receives the tracer that existed during tracing. Nothing fails then; using the "
        "element later raises:\n\n```\njax.errors.UnexpectedTracerError: Encountered an "
        "unexpected tracer. ... JAX transformations require that functions explicitly return "
        "their outputs, and disallow saving intermediate values to global state.\n```\n\n"
        "Calls that hit the compilation cache do not append at all (`len(out)` stays 1)."
    )
    example = "```python\nhistory = []\n\n@jax.jit\ndef step(x):\n    y = jnp.tanh(x)\n    history.append(y)\n    return y\n```"
    use_instead = "Return the values (or stack them with `lax.scan`) and collect them outside:\n\n```python\n@jax.jit\ndef step(x):\n    return jnp.tanh(x)\n\nhistory.append(step(x))\n```"
    fix_safety = "No automatic fix: the function's outputs have to change."
    VALID = [
        # a local list stacked inside the trace
        Valid("import jax\nimport jax.numpy as jnp\n\n@jax.jit\ndef f(x):\n    parts = []\n    for i in range(3):\n        parts.append(x * i)\n    return jnp.stack(parts)\n"),
        # Python values only (trace log)
        Valid("import jax\n\ntraces = []\n\n@jax.jit\ndef f(x):\n    traces.append(x.shape)\n    return x\n"),
        # outside traced code
        Valid("import jax.numpy as jnp\n\nhistory = []\n\ndef step(x):\n    history.append(jnp.tanh(x))\n"),
        # helper inside the same jit writes to the jitted function's list
        Valid("import jax\nimport jax.numpy as jnp\n\n@jax.jit\ndef f(x):\n    out = []\n    def emit(v):\n        out.append(v)\n    emit(x)\n    emit(x + 1)\n    return jnp.stack(out)\n"),
    ]
    INVALID = [
        Invalid(
            "import jax\nimport jax.numpy as jnp\n\nhistory = []\n\n@jax.jit\ndef step(x):\n    y = jnp.tanh(x)\n    history.append(y)\n    return y\n",
            expected=[(9, 5)],
            message_contains="UnexpectedTracerError",
        ),
        Invalid(
            "import jax\nfrom jax import lax\n\n@jax.jit\ndef run(xs):\n    ys = []\n    cache = {}\n    def body(c, x):\n        ys.append(x)\n        cache['last'] = c\n        return c + x, None\n    return lax.scan(body, 0.0, xs)\n",
            expected=[(9, 9), (10, 9)],
        ),
    ]

    def _outer_list(self, base: cst.CSTNode) -> Optional[str]:
        ctx = self.ctx
        unit = ctx.unit
        if not isinstance(base, cst.Name):
            return None
        n = base.value
        if _binds(unit, n) and n not in unit.nonlocal_names:
            return None
        if ctx.value(base).kind != V.LIST:
            return None
        if not _escapes(unit, _owner(unit, n)):
            return None
        return n

    def visit_Call(self, node: cst.Call) -> None:
        ctx = self.ctx
        if not ctx.in_traced or not isinstance(node.func, cst.Attribute):
            return
        if node.func.attr.value not in _MUTATORS:
            return
        n = self._outer_list(node.func.value)
        if n is None or not any(ctx.is_traced(a.value) or _holds_traced(ctx, a.value) for a in node.args):
            return
        self._report(node, n)

    def _report(self, node: cst.CSTNode, n: str) -> None:
        self.report(
            node,
            f"`{n}` lives outside the trace of `{self.ctx.unit.name}`: storing a traced value in it "
            "leaks the tracer (UnexpectedTracerError when it is used later), and cached calls do "
            "not store anything. Return the value instead",
        )

    def visit_Assign(self, node: cst.Assign) -> None:
        ctx = self.ctx
        if not ctx.in_traced or not ctx.is_traced(node.value):
            return
        for t in node.targets:
            tgt = t.target
            if isinstance(tgt, cst.Subscript):
                n = self._outer_list(tgt.value)
                if n is not None:
                    self._report(tgt, n)


def _holds_traced(ctx, e: cst.CSTNode) -> bool:
    if isinstance(e, (cst.Tuple, cst.List)):
        return any(ctx.is_traced(el.value) for el in e.elements)
    if isinstance(e, cst.Dict):
        return any(isinstance(el, cst.DictElement) and ctx.is_traced(el.value) for el in e.elements)
    return False


# --------------------------------------------------------------------------- JAX405
class StaleGlobalRead(Rule):
    code = "JAX405"
    name = "stale-global-in-traced-code"
    summary = "A module global that is reassigned later is read inside traced code: jit bakes in the value it saw"
    severity = Severity.WARNING
    seed = "The Sharp Bits § Pure functions, `impure_uses_globals` (seed 000); FAQ § jit and global state (seed 001)"
    what_it_does = (
        "Flags reads, inside traced code, of a module-level name that the module assigns more "
        "than once or in a loop, where a (re)assignment comes after the traced function is "
        "defined. Globals assigned once (constants, configuration) and names the function "
        "calls are not flagged."
    )
    why_bad = (
        "A global read under `jit` is a constant of the traced computation. The compiled "
        "function keeps the value the global had at trace time: after `g = 10.` a cached call "
        "still uses the old `g` (`jit(f)(5.)` gives `5.0`, not `15.0`), and only a retrace "
        "(a new input shape or dtype) picks up the new value, so results depend on call "
        "history. No warning is given."
    )
    example = "```python\ng = 0.\n\n@jax.jit\ndef f(x):\n    return x + g\n\nf(4.)\ng = 10.\nf(5.)  # 5.0: still g = 0.\n```"
    use_instead = "Pass the value as an argument:\n\n```python\n@jax.jit\ndef f(x, g):\n    return x + g\n```"
    fix_safety = "No automatic fix: the signature and every call site change."
    VALID = [
        # constant assigned once
        Valid("import jax\nimport jax.numpy as jnp\n\nSCALE = 2.0\n\n@jax.jit\ndef f(x):\n    return jnp.sin(x) * SCALE\n"),
        # reassigned only before the function is defined (configuration)
        Valid("import jax\nimport sys\n\nif sys.platform == 'darwin':\n    EPS = 1e-6\nelse:\n    EPS = 1e-8\n\n@jax.jit\ndef f(x):\n    return x + EPS\n"),
        # local variable of the same name
        Valid("import jax\n\ng = 0.\n\n@jax.jit\ndef f(x):\n    g = 2.\n    return x + g\n\ng = 1.\n"),
        # a function name that is rebound (wrapped) is called, not read as data
        Valid("import jax\n\ndef helper(x):\n    return x * 2\n\nhelper = jax.jit(helper)\n\n@jax.jit\ndef f(x):\n    return helper(x)\n\nhelper = jax.checkpoint(helper)\n"),
    ]
    INVALID = [
        Invalid(
            "from jax import jit\n\ng = 0.\n\ndef impure_uses_globals(x):\n    return x + g\n\nprint(jit(impure_uses_globals)(4.))\ng = 10.\nprint(jit(impure_uses_globals)(5.))\n",
            expected=[(6, 16)],
            message_contains="line 9",
        ),
        Invalid(
            "import jax\nimport jax.numpy as jnp\n\ny = 0\n\n@jax.jit\ndef f(x):\n    print('Inside:', y)\n    return x + y\n\nfor y in range(3):\n    print('Result:', f(jnp.array(1)))\n",
            expected=[(8, 22)],
        ),
    ]

    def __init__(self, ctx) -> None:
        super().__init__(ctx)
        self._skip: set[int] = set()
        self._top: Optional[dict[int, int]] = None
        self._loops: set[int] = set()
        self._in_class: set[int] = set()
        self._reported: set[tuple[int, str]] = set()

    def _positions(self) -> dict[int, int]:
        if self._top is None:
            top: dict[int, int] = {}
            for i, stmt in enumerate(self.ctx.module.body):
                stack = [(stmt, False, False)]
                while stack:
                    n, in_loop, in_class = stack.pop()
                    top[id(n)] = i
                    if in_loop:
                        self._loops.add(id(n))
                    if in_class:
                        self._in_class.add(id(n))
                    if isinstance(n, (cst.FunctionDef, cst.Lambda)):
                        continue
                    loop = in_loop or isinstance(n, (cst.For, cst.While))
                    klass = in_class or isinstance(n, cst.ClassDef)
                    stack.extend((c, loop, klass) for c in children(n))
            self._top = top
        return self._top

    def visit_Attribute(self, node: cst.Attribute) -> None:
        self._skip.add(id(node.attr))

    def visit_Call(self, node: cst.Call) -> None:
        self._skip.add(id(node.func))

    def visit_Arg(self, node: cst.Arg) -> None:
        if node.keyword is not None:
            self._skip.add(id(node.keyword))

    def visit_Name(self, node: cst.Name) -> None:
        ctx = self.ctx
        if not ctx.in_traced or id(node) in self._skip:
            return
        n = node.value
        assigns = ctx.index.module_assignments.get(n)
        if not assigns:
            return
        top = self._positions()
        unit = ctx.unit
        u: Optional[Unit] = unit
        while u is not None and not u.is_module:
            if _binds(u, n) or n in u.global_names or n in u.nonlocal_names:
                return
            u = u.parent
        mv = ctx.module_value(n)
        if mv is not None and mv.kind in (V.FUNCTION, V.MODULE):
            return
        if (id(unit), n) in self._reported:
            return
        outer = unit
        while outer.parent is not None and not outer.parent.is_module:
            outer = outer.parent
        def_at = top.get(id(outer.node))
        if def_at is None:
            return
        # class attributes are not module globals
        assigns = [a for a in assigns if id(a) not in self._in_class]
        in_loop = [a for a in assigns if id(a) in self._loops]
        if len(assigns) < 2 and not in_loop:
            return
        later = [a for a in assigns if top.get(id(a), -1) > def_at]
        if not later:
            return
        self._reported.add((id(unit), n))
        self.report(
            node,
            f"`{n}` is a module global that is reassigned (line {{related_line}}) after "
            f"`{outer.name}` is defined: under jit its value is read once, at trace time, and baked "
            "into the compiled function, so later assignments are ignored until a retrace. Pass it "
            "as an argument",
            related=later[0],
        )


# --------------------------------------------------------------------------- JAX406
_STDLIB_RANDOM = frozenset(
    {"random", "randint", "randrange", "uniform", "gauss", "normalvariate", "choice", "choices",
     "shuffle", "sample", "betavariate", "expovariate", "gammavariate", "lognormvariate",
     "triangular", "vonmisesvariate", "paretovariate", "weibullvariate", "getrandbits", "binomialvariate"}
)


class StatefulRngInTraced(Rule):
    code = "JAX406"
    name = "stateful-rng-in-traced-code"
    summary = "`np.random.*` / `random.random()` inside traced code draws once and bakes the numbers in"
    severity = Severity.ERROR
    seed = "The Sharp Bits § Random Numbers (seed 000); tutorial § NumPy's global RNG state (seed 002)"
    what_it_does = (
        "Flags calls to NumPy's stateful random API (`np.random.normal`, `np.random.rand`, "
        "`np.random.default_rng`, ...) and to the standard library `random` module inside code "
        "that JAX traces. The same calls outside traced code (making data, seeding) are fine."
    )
    why_bad = (
        "The Python RNG runs once, while the function is traced, and its result becomes a "
        "constant of the compiled computation: `jax.jit(lambda x: x + np.random.normal(size=2))` "
        "returns the same \"noise\" on every call (a new input shape retraces and draws new "
        "constants). No warning is given."
    )
    example = "```python\n@jax.jit\ndef noisy(x):\n    return x + np.random.normal(size=x.shape)\n```"
    use_instead = "Pass a JAX PRNG key and use `jax.random`:\n\n```python\n@jax.jit\ndef noisy(x, key):\n    return x + jax.random.normal(key, x.shape)\n```"
    fix_safety = "No automatic fix: a key has to be threaded through the function."
    VALID = [
        Valid("import numpy as np\nimport jax\n\ndata = np.random.normal(size=(100, 3))\n\n@jax.jit\ndef f(x, key):\n    return x + jax.random.normal(key, x.shape)\n\nf(data, jax.random.key(0))\n"),
        # jax.random imported as `random`
        Valid("import jax\nfrom jax import random\n\n@jax.jit\ndef f(x, key):\n    return x + random.uniform(key, x.shape)\n"),
        # host callback
        Valid("import jax\nimport numpy as np\n\ndef noise(x):\n    return x + np.random.normal(size=x.shape).astype(x.dtype)\n\n@jax.jit\ndef f(x):\n    return jax.pure_callback(noise, jax.ShapeDtypeStruct(x.shape, x.dtype), x)\n"),
    ]
    INVALID = [
        Invalid(
            "import jax\nimport numpy as np\n\nf = jax.jit(lambda x: x + np.random.normal(size=2))\n",
            expected=[(4, 27)],
        ),
        Invalid(
            "import random\nimport jax\n\n@jax.vmap\ndef jitter(x):\n    return x * random.random()\n",
            expected=[(6, 16)],
            message_contains="jax.random",
        ),
    ]

    def visit_Call(self, node: cst.Call) -> None:
        ctx = self.ctx
        if not ctx.in_traced:
            return
        q = ctx.qualname(node.func)
        if q is None:
            return
        if q.startswith("numpy.random."):
            what = f"`{ctx.code(node.func).strip()}` (NumPy's stateful RNG)"
        elif q.startswith("random.") and q.count(".") == 1 and q.split(".")[1] in _STDLIB_RANDOM:
            what = f"`{ctx.code(node.func).strip()}` (Python's stateful `random` module)"
        else:
            return
        self.report(
            node,
            f"{what} inside traced `{ctx.unit.name}` runs once at trace time: its numbers are baked "
            "into the compiled function and repeat on every call. Pass a PRNG key and use "
            "`jax.random` instead",
        )
