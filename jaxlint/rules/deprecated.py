"""JAX9xx: deprecated and removed JAX APIs, driven by ``jaxlint/model/deprecations.py``."""

from __future__ import annotations

from typing import Optional

import libcst as cst

from jaxlint.findings import Applicability, Severity
from jaxlint.model import deprecations as D
from jaxlint.model import values as V
from jaxlint.model.walk import descendants, dotted_name, positional_args
from jaxlint.engine.rule import Invalid, Replacement, Rule, RuleFix, Valid, fix

_GUARD_EXCEPTIONS = frozenset({"ImportError", "ModuleNotFoundError", "AttributeError", "Exception", "BaseException"})
_SEED = "Renamed and removed APIs met in the seeds: `jax.tree_map`, `jax.ops.index_update`, `.device_buffer`, `from jax.config import config`, `jax.experimental.optimizers` (seeds 000-004)"


def code_for(row: D.Deprecation) -> str:
    if row.opt_in:
        return "JAX950"
    if row.old == "jax.config.config":
        return "JAX905"
    if row.kind == "kwarg":
        return "JAX903" if row.removed else "JAX902"
    if row.kind == "method":
        return "JAX904"
    return "JAX901" if row.removed else "JAX902"


def _status(row: D.Deprecation) -> str:
    if row.removed == "never existed":
        return "does not exist in JAX"
    if row.removed:
        dep = f" (deprecated in {row.deprecated})" if row.deprecated else ""
        return f"was removed in JAX {row.removed}{dep}"
    if row.deprecated:
        return f"is deprecated since JAX {row.deprecated}"
    return "is a legacy API"


def _head(node: cst.CSTNode) -> Optional[cst.Name]:
    while isinstance(node, cst.Attribute):
        node = node.value
    return node if isinstance(node, cst.Name) else None


def _atom(ctx, e: cst.BaseExpression) -> str:
    text = ctx.code(e).strip()
    if isinstance(e, (cst.Name, cst.Attribute, cst.Subscript, cst.Call)):
        return text
    return f"({text})"



def _is_feature_check(test: cst.BaseExpression) -> bool:
    """`hasattr(jax, ...)`, `getattr(...)`, or a version comparison, possibly
    combined with `and`/`or`/`not` (only the top of the test is inspected)."""
    t = type(test)
    if t is cst.BooleanOperation:
        return _is_feature_check(test.left) or _is_feature_check(test.right)
    if t is cst.UnaryOperation:
        return _is_feature_check(test.expression)
    if t is cst.Call:
        if type(test.func) is cst.Name and test.func.value in ("hasattr", "getattr"):
            return True
        return _mentions_version(test)
    if t is cst.Comparison:
        return any(_mentions_version(e) for e in (test.left, *(c.comparator for c in test.comparisons)))
    return _mentions_version(test)


def _mentions_version(e: cst.BaseExpression) -> bool:
    """`jax.__version__`, `version`, `jax_version`, `parse(jax.__version__)`..."""
    while True:
        t = type(e)
        if t is cst.Name:
            return "version" in e.value.lower()
        if t is cst.Attribute:
            if "version" in e.attr.value.lower():
                return True
            e = e.value
        elif t is cst.Call:
            return any(_mentions_version(a.value) for a in e.args) or _mentions_version(e.func)
        elif t is cst.Subscript:
            e = e.value
        elif t in (cst.Tuple, cst.List):
            return any(_mentions_version(el.value) for el in e.elements)
        else:
            return False

class _DeprecationEngine:
    """Matches the table against names, imports, calls and attributes; the
    concrete rules keep the findings of their own code."""

    ctx: object
    code: str

    def _init_engine(self) -> None:
        self._skip: set[int] = set()
        self._guard = 0

    # -- helpers -------------------------------------------------------------------
    def _emit(self, row: D.Deprecation, node: cst.CSTNode, what: str, rfix: Optional[RuleFix] = None) -> None:
        if code_for(row) != self.code or self._guard:
            return
        note = f" ({row.note})" if row.note and row.kind != "method" else ""
        if row.kind == "method" and row.note:
            note = f" ({row.note})"
        if row.opt_in:
            msg = f"`{what}` {_status(row)}; consider {row.new}{note}"
        else:
            msg = f"`{what}` {_status(row)}: use {row.new} instead{note}"
        self.report(node, msg, rfix)  # type: ignore[attr-defined]

    def _applic(self, row: D.Deprecation) -> Applicability:
        return Applicability.SAFE if row.fix == "safe" else Applicability.UNSAFE

    def _spell(self, qualname: str, node: Optional[cst.CSTNode] = None) -> Optional[str]:
        """``qualname`` written with the user's imports (keeping their alias)."""
        ctx = self.ctx
        if node is not None:
            head = _head(node)
            if head is not None:
                base = ctx.qualname(head)  # type: ignore[attr-defined]
                if base and qualname.startswith(base + "."):
                    return head.value + qualname[len(base):]
        best: Optional[tuple[str, str]] = None
        for local, full in ctx.imports.names.items():  # type: ignore[attr-defined]
            if qualname == full or qualname.startswith(full + "."):
                if ctx.qualname(cst.Name(local)) != full:  # type: ignore[attr-defined]
                    continue
                if best is None or len(full) > len(best[1]):
                    best = (local, full)
        if best is None:
            return None
        return best[0] + qualname[len(best[1]):]

    def _rename_fix(self, row: D.Deprecation, q: str, node: cst.CSTNode) -> Optional[RuleFix]:
        if row.fix is None:
            return None
        if row.new_qualname is not None and row.kind in ("name", "module"):
            target = row.new_qualname + q[len(row.old):]
            text = self._spell(target, node)
            if text is None:
                return None
            return fix(self._applic(row), f"Replace with `{text}`", Replacement(node, text))
        consts = {"jax.numpy.NINF": "(-{jnp}.inf)", "jax.numpy.PZERO": "0.0", "jax.numpy.NZERO": "(-0.0)"}
        if q in consts:
            tmpl = consts[q]
            if "{jnp}" in tmpl:
                jnp = self._spell("jax.numpy", node)
                if jnp is None:
                    return None
                tmpl = tmpl.replace("{jnp}", jnp)
            return fix(self._applic(row), f"Replace with `{tmpl}`", Replacement(node, tmpl))
        return None

    # -- attribute / name uses -----------------------------------------------------------
    def visit_Try(self, node: cst.Try) -> None:
        for h in node.handlers:
            names = []
            if h.type is None:
                names = ["Exception"]
            elif isinstance(h.type, cst.Tuple):
                names = [dotted_name(e.value) or "" for e in h.type.elements]
            else:
                names = [dotted_name(h.type) or ""]
            if any(n.rsplit(".", 1)[-1] in _GUARD_EXCEPTIONS for n in names):
                self._guard += 1
                self._guarded = getattr(self, "_guarded", set()) | {id(node)}
                return

    def visit_If(self, node: cst.If) -> None:
        # `if hasattr(jax, "enable_x64"): ... else: <old API>` and version checks are shims
        if _is_feature_check(node.test):
            self._guard += 1
            self._guarded = getattr(self, "_guarded", set()) | {id(node)}

    def leave_If(self, node: cst.If) -> None:
        if id(node) in getattr(self, "_guarded", set()):
            self._guard -= 1
            self._guarded.discard(id(node))

    def leave_Try(self, node: cst.Try) -> None:
        if id(node) in getattr(self, "_guarded", set()):
            self._guard -= 1
            self._guarded.discard(id(node))

    def visit_Attribute(self, node: cst.Attribute) -> None:
        self._check_expr(node)

    def _mark_chain(self, node: cst.CSTNode) -> None:
        while isinstance(node, cst.Attribute):
            self._skip.add(id(node))
            node = node.value
        self._skip.add(id(node))

    def _check_expr(self, node: cst.Attribute) -> None:
        if id(node) in self._skip:
            return
        ctx = self.ctx
        q = ctx.qualname(node)  # type: ignore[attr-defined]
        if q is None:
            self._check_method(node)
            return
        row = D.lookup(q)
        if row is None:
            return
        head = _head(node)
        if head is not None and (ctx.imports.names.get(head.value) or "").startswith(("jax._src", "jaxlib.")):  # type: ignore[attr-defined]
            self._mark_chain(node)
            return  # JAX's internals keep names the public API removed
        if head is not None:
            base = ctx.imports.names.get(head.value)  # type: ignore[attr-defined]
            if base is not None and base != head.value and D.lookup(base) is not None:
                self._mark_chain(node)
                return  # the import itself is reported
        self._mark_chain(node)
        self._emit(row, node, ctx.code(node).strip(), self._rename_fix(row, q, node))  # type: ignore[attr-defined]

    def _check_method(self, node: cst.Attribute) -> None:
        attr = node.attr.value
        if attr not in ("device_buffer", "device_buffers"):
            return
        row = D.METHODS[attr]
        ctx = self.ctx
        v = ctx.value(node.value)  # type: ignore[attr-defined]
        if v.kind in (V.NPARRAY, V.STATIC, V.MODULE, V.FUNCTION):
            return
        base = _atom(ctx, node.value)
        if attr == "device_buffer":
            new = f"{base}.addressable_data(0)"
        else:
            new = f"[s.data for s in {base}.addressable_shards]"
        self._emit(row, node, ctx.code(node).strip(), fix(Applicability.SAFE, f"Replace with `{new}`", Replacement(node, new)))  # type: ignore[attr-defined]

    def _scan_annotation(self, ann: Optional[cst.Annotation]) -> None:
        if ann is None or type(ann.annotation) is cst.Name:
            return  # a bare name: a removed one is reported at its import
        from jaxlint.model.walk import children

        stack: list[cst.CSTNode] = [ann.annotation]
        while stack:
            n = stack.pop()
            if isinstance(n, cst.Attribute):
                self._check_expr(n)
            stack.extend(reversed(list(children(n))))

    def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
        p = node.params
        for param in (*p.posonly_params, *p.params, *p.kwonly_params):
            self._scan_annotation(param.annotation)
        for star in (p.star_arg, p.star_kwarg):
            if isinstance(star, cst.Param):
                self._scan_annotation(star.annotation)
        self._scan_annotation(node.returns)

    def visit_AnnAssign(self, node: cst.AnnAssign) -> None:
        self._scan_annotation(node.annotation)

    # -- imports -------------------------------------------------------------------------
    def visit_Import(self, node: cst.Import) -> None:
        for alias in node.names:
            full = dotted_name(alias.name)
            if full is None:
                continue
            row = D.lookup(full)
            if row is None:
                continue
            rfix = None
            if row.fix is not None and row.kind == "module" and row.new_qualname is not None and alias.asname is not None:
                new = row.new_qualname + full[len(row.old):]
                rfix = fix(self._applic(row), f"Import `{new}`", Replacement(alias.name, new))
            self._emit(row, alias, f"import {full}", rfix)

    def visit_ImportFrom(self, node: cst.ImportFrom) -> None:
        if node.relative or node.module is None or isinstance(node.names, cst.ImportStar):
            if node.module is not None and not node.relative:
                mod = dotted_name(node.module)
                row = D.lookup(mod) if mod else None
                if row is not None:
                    self._emit(row, node.module, f"from {mod} import *")
            return
        mod = dotted_name(node.module)
        if mod is None:
            return
        mod_row = D.lookup(mod)
        if mod_row is not None:
            rfix = None
            if mod_row.fix is not None and mod_row.new_qualname is not None and mod_row.kind == "module":
                new = mod_row.new_qualname + mod[len(mod_row.old):]
                rfix = fix(self._applic(mod_row), f"Import from `{new}`", Replacement(node.module, new))
            # a removed name imported from a removed module: report the name's own row
            names = [a for a in node.names if isinstance(a.name, cst.Name)]
            exact = [D.BY_NAME.get(f"{mod}.{a.name.value}") for a in names]  # type: ignore[union-attr]
            if len(names) == 1 and exact[0] is not None:
                self._import_alias(node, names[0], exact[0], f"{mod}.{names[0].name.value}")  # type: ignore[union-attr]
                return
            self._emit(mod_row, node.module, f"from {mod} import ...", rfix)
            return
        for alias in node.names:
            if not isinstance(alias.name, cst.Name):
                continue
            full = f"{mod}.{alias.name.value}"
            row = D.lookup(full)
            if row is None:
                continue
            self._import_alias(node, alias, row, full, single=len(node.names) == 1)

    def _import_alias(self, node: cst.ImportFrom, alias: cst.ImportAlias, row: D.Deprecation, full: str, single: bool = True) -> None:
        rfix = None
        local = alias.asname.name.value if alias.asname is not None and isinstance(alias.asname.name, cst.Name) else alias.name.value  # type: ignore[union-attr]
        if row.fix is not None and single:
            imp = row.import_from
            if imp is None and row.kind == "module" and row.new_qualname is not None and full == row.old:
                mod, _, name = row.new_qualname.rpartition(".")
                imp = (mod, name)
            if imp is not None:
                text = f"from {imp[0]} import {imp[1]}" + (f" as {local}" if local != imp[1] else "")
                rfix = fix(self._applic(row), f"Replace with `{text}`", Replacement(node, text))
        self._emit(row, alias, f"from {full.rpartition('.')[0]} import {alias.name.value}", rfix)  # type: ignore[union-attr]

    # -- calls: keyword arguments, special rewrites, array methods ------------------------
    def visit_Call(self, node: cst.Call) -> None:
        ctx = self.ctx
        func = node.func
        q = ctx.qualname(func)  # type: ignore[attr-defined]
        if q is not None:
            kw_rows = D.KWARGS.get(q)
            head = _head(func)
            if head is not None and (ctx.imports.names.get(head.value) or "").startswith("jax._src"):  # type: ignore[attr-defined]
                return
            if kw_rows:
                self._kwargs(node, q, kw_rows)
            row = D.BY_NAME.get(q)
            if row is not None and row.fix is not None and id(func) not in self._skip:
                rfix = self._call_fix(node, q, row)
                if rfix is not None:
                    self._mark_chain(func)
                    self._emit(row, func, ctx.code(func).strip(), rfix)  # type: ignore[attr-defined]
            return
        if isinstance(func, cst.Attribute) and func.attr.value in ("to_py", "device") and not node.args:
            v = ctx.value(func.value)  # type: ignore[attr-defined]
            if v.kind != V.ARRAY:
                return
            row = D.METHODS[func.attr.value]
            base = _atom(ctx, func.value)
            if func.attr.value == "device":
                new = f"{base}.device"
                rfix = fix(Applicability.SAFE, f"Replace with `{new}`", Replacement(node, new))
            else:
                np_name = self._spell("numpy.asarray")
                rfix = None
                if np_name is not None:
                    new = f"{np_name}({ctx.code(func.value).strip()})"  # type: ignore[attr-defined]
                    rfix = fix(Applicability.SAFE, f"Replace with `{new}`", Replacement(node, new))
            self._emit(row, node, ctx.code(node).strip(), rfix)  # type: ignore[attr-defined]

    def _call_fix(self, node: cst.Call, q: str, row: D.Deprecation) -> Optional[RuleFix]:
        ctx = self.ctx
        pos = positional_args(node)
        if len(pos) != len(node.args):
            return None
        short = q.rsplit(".", 1)[1]
        methods = {"index_update": "set", "index_add": "add", "index_mul": "multiply", "index_min": "min", "index_max": "max"}
        if q.startswith("jax.ops.") and short in methods and len(pos) == 3:
            x, idx, v = (a.value for a in pos)
            if isinstance(idx, cst.Subscript) and ctx.qualname(idx.value) == "jax.ops.index":  # type: ignore[attr-defined]
                self._mark_chain(idx.value)
                index_text = ", ".join(ctx.code(el).strip().rstrip(",").strip() for el in idx.slice)  # type: ignore[attr-defined]
            else:
                index_text = ctx.code(idx).strip()  # type: ignore[attr-defined]
            new = f"{_atom(ctx, x)}.at[{index_text}].{methods[short]}({ctx.code(v).strip()})"  # type: ignore[attr-defined]
            return fix(self._applic(row), f"Replace with `{new}`", Replacement(node, new))
        if q == "jax.random.shuffle" and len(pos) == 2:
            perm = self._spell("jax.random.permutation", node.func)
            if perm is None:
                return None
            new = f"{perm}({ctx.code(pos[0].value).strip()}, {ctx.code(pos[1].value).strip()}, independent=True)"  # type: ignore[attr-defined]
            return fix(self._applic(row), f"Replace with `{new}`", Replacement(node, new))
        if q == "jax.numpy.msort" and len(pos) == 1:
            sort = self._spell("jax.numpy.sort", node.func)
            if sort is None:
                return None
            new = f"{sort}({ctx.code(pos[0].value).strip()}, axis=0)"  # type: ignore[attr-defined]
            return fix(self._applic(row), f"Replace with `{new}`", Replacement(node, new))
        return None

    def _kwargs(self, node: cst.Call, q: str, rows: dict[str, D.Deprecation]) -> None:
        ctx = self.ctx
        hits = [(a, rows[a.keyword.value]) for a in node.args
                if a.keyword is not None and a.keyword.value in rows
                and not (rows[a.keyword.value].removed is None and self._forwarded(a.value))]
        if not hits:
            return
        rfix = None
        if all(r.fix is not None for _, r in hits):
            rfix = self._kwarg_fix(node, q, rows)
        for i, (arg, row) in enumerate(hits):
            self._emit(row, arg, f"{q.replace('jax.numpy.', 'jnp.')}({arg.keyword.value}=...)", rfix if i == 0 else None)  # type: ignore[union-attr]

    def _forwarded(self, value: cst.BaseExpression) -> bool:
        """``None``, or a parameter of the enclosing function passed through (a wrapper
        forwarding ``device=device`` only warns when its own caller sets it)."""
        if isinstance(value, cst.Name):
            if value.value == "None":
                return True
            return self.ctx.unit.param(value.value) is not None  # type: ignore[attr-defined]
        return False

    def _kwarg_fix(self, node: cst.Call, q: str, rows) -> Optional[RuleFix]:
        ctx = self.ctx
        order = {"jax.numpy.clip": ["a"], "jax.numpy.where": ["condition", "x", "y"]}.get(q, [])
        pos = [ctx.code(a.value).strip() for a in positional_args(node)]  # type: ignore[attr-defined]
        kw = {a.keyword.value: a for a in node.args if a.keyword is not None}
        if any(a.star for a in node.args):
            return None
        moved = [k for k in order if k in kw]
        if moved:
            # keywords that become positional must continue the positional list
            if order.index(moved[0]) != len(pos) or moved != order[len(pos):len(pos) + len(moved)]:
                return None
            pos += [ctx.code(kw[k].value).strip() for k in moved]  # type: ignore[attr-defined]
        rest = []
        for name, a in kw.items():
            if name in moved:
                continue
            row = rows.get(name)
            new_name = row.new_qualname if row is not None and row.new_qualname else name
            rest.append(f"{new_name}={ctx.code(a.value).strip()}")  # type: ignore[attr-defined]
        new = f"{ctx.code(node.func).strip()}({', '.join(pos + rest)})"  # type: ignore[attr-defined]
        return fix(Applicability.SAFE, f"Replace with `{new}`", Replacement(node, new))


def _rule(code: str, name: str, summary: str, severity: Severity, fix_availability: str, **docs):
    """Build one concrete rule class over the shared engine."""
    return type(
        name.replace("-", "_"),
        (_DeprecationEngine, Rule),
        dict(code=code, name=name, summary=summary, severity=severity, fix_availability=fix_availability,
             seed=_SEED, __module__=__name__, **docs),
    )


def _init(self, ctx) -> None:
    Rule.__init__(self, ctx)
    self._init_engine()


_DeprecationEngine.__init__ = _init  # type: ignore[assignment]


def _table_doc(code: str) -> str:
    rows = [r for r in D.TABLE if code_for(r) == code]
    lines = ["| old | use instead | deprecated | removed | fix |", "| --- | --- | --- | --- | --- |"]
    for r in rows:
        old = r.old if r.kind != "kwarg" else f"{r.function}({r.old}=...)"
        if r.kind == "method":
            old = f"x.{r.old}" + ("()" if r.old in ("to_py", "device") else "")
        if r.kind == "module":
            old += " (module)"
        lines.append(f"| `{old}` | {r.new} | {r.deprecated or '-'} | {r.removed or '-'} | {r.fix or 'none'} |")
    return "\n".join(lines)


RemovedApi = _rule(
    "JAX901", "removed-jax-api",
    "A JAX API that no longer exists (AttributeError/ImportError at runtime)", Severity.ERROR, "sometimes",
    what_it_does=(
        "Flags uses and imports of JAX names and modules that current JAX has removed, resolved "
        "through imports (so `numpy.product` or a local `tree_map` are not flagged, and "
        "`jax.tree_util.tree_map`, still supported, is not either). Imports inside a `try` whose "
        "`except` catches `ImportError`/`AttributeError` (compatibility shims) are skipped.\n\n"
        + "The table (from `jaxlint/model/deprecations.py`):\n\n" + _table_doc("JAX901")
    ),
    why_bad=(
        "These names raise at runtime on JAX 0.10.2 and 0.12, e.g. `AttributeError: module 'jax' "
        "has no attribute 'tree_map'`, `AttributeError: module 'jax.ops' has no attribute "
        "'index_update'`, `ImportError: cannot import name 'maps' from 'jax.experimental'`. Code "
        "copied from older tutorials and answers (the seeds use several) stops working."
    ),
    example="```python\nimport jax\nimport jax.numpy as jnp\n\ny = jax.tree_map(f, tree)\nz = jnp.product(x)\nx = jax.ops.index_update(x, jax.ops.index[0], 1.)\n```",
    use_instead="```python\ny = jax.tree.map(f, tree)\nz = jnp.prod(x)\nx = x.at[0].set(1.)\n```",
    fix_safety=(
        "Renames keep the user's import alias (`jnp.product` -> `jnp.prod`) and are safe where the "
        "replacement has the same signature (the `fix` column). `jnp.in1d` -> `jnp.isin` is "
        "unsafe (the result keeps the input's shape). Rows with no mechanical replacement "
        "(`xmap`, `host_callback`, `device_put_replicated`...) have no fix."
    ),
    VALID=[
        Valid("import jax\n\ny = jax.tree.map(lambda v: v + 1, {'a': 1})\nz = jax.tree_util.tree_map(lambda v: v, [1])\n"),
        Valid("import numpy\nimport jax\n\np = numpy.product([1, 2])\n"),
        Valid("import jax\n\ndef tree_map(f, t):\n    return [f(v) for v in t]\n\nx = tree_map(abs, [1])\n"),
        Valid("try:\n    from jax.experimental.maps import Mesh\nexcept ImportError:\n    from jax.sharding import Mesh\n"),
        Valid("import jax\n\nkey = jax.random.PRNGKey(0)\n"),
        # version shims
        Valid("import jax\n\nif hasattr(jax, 'enable_x64'):\n    enable_x64 = jax.enable_x64\nelse:\n    enable_x64 = jax.experimental.enable_x64\n"),
        # JAX's own internals keep the private names
        Valid("from jax._src import api\n\ndef put(xs, devices):\n    return api.device_put_sharded(xs, devices)\n"),
    ],
    INVALID=[
        Invalid(
            "import jax\n\ny = jax.tree_map(lambda v: v + 1, {'a': 1})\n",
            expected=[(3, 5)],
            fixed="import jax\n\ny = jax.tree.map(lambda v: v + 1, {'a': 1})\n",
            message_contains="removed in JAX 0.6.0",
        ),
        Invalid(
            "import jax.numpy as np\n\ndef f(x):\n    return np.product(x) + np.cumproduct(x)\n",
            expected=[(4, 12), (4, 28)],
            fixed="import jax.numpy as np\n\ndef f(x):\n    return np.prod(x) + np.cumprod(x)\n",
        ),
        Invalid(
            "import jax\nimport jax.numpy as jnp\n\nx = jnp.zeros(5)\nx = jax.ops.index_update(x, jax.ops.index[1:3], 2.)\n",
            expected=[(5, 5)],
            fixed="import jax\nimport jax.numpy as jnp\n\nx = jnp.zeros(5)\nx = x.at[1:3].set(2.)\n",
        ),
        Invalid(
            "from jax.experimental import optimizers\nimport jax.experimental.stax as stax\n",
            expected=[(1, 30), (2, 8)],
            fixed="from jax.example_libraries import optimizers\nimport jax.example_libraries.stax as stax\n",
        ),
        Invalid(
            "from jax import tree_map\n\ny = tree_map(abs, [1])\n",
            expected=[(1, 17)],
            fixed="from jax.tree_util import tree_map\n\ny = tree_map(abs, [1])\n",
        ),
        Invalid("from jax.ops import index_update\nfrom jax.experimental.maps import xmap\n", expected=[(1, 21), (2, 6)]),
        Invalid(
            "import jax\n\ndef f(x: jax.numpy.DeviceArray) -> bool:\n    return isinstance(x, jax.interpreters.xla.DeviceArray)\n",
            expected=[(3, 10), (4, 26)],
            fixed="import jax\n\ndef f(x: jax.Array) -> bool:\n    return isinstance(x, jax.Array)\n",
        ),
        Invalid(
            "import jax.numpy as jnp\n\nlo = jnp.NINF * 2\n",
            expected=[(3, 6)],
            fixed="import jax.numpy as jnp\n\nlo = (-jnp.inf) * 2\n",
        ),
        Invalid(
            "import jax.numpy as jnp\n\nm = jnp.in1d(jnp.arange(3), jnp.arange(2))\n",
            expected=[(3, 5)],
            fixed="import jax.numpy as jnp\n\nm = jnp.isin(jnp.arange(3), jnp.arange(2))\n",
            unsafe=True,
        ),
    ],
)

DeprecatedApi = _rule(
    "JAX902", "deprecated-jax-api",
    "A deprecated JAX API that still runs (with a DeprecationWarning/UserWarning)", Severity.WARNING, "sometimes",
    what_it_does=(
        "Flags JAX APIs that still work on current JAX but warn and are scheduled for removal:\n\n"
        + _table_doc("JAX902")
    ),
    why_bad=(
        "They run with a warning today, e.g. `DeprecationWarning: jax.experimental.pjit.pjit has "
        "been deprecated. Please use jax.jit instead.`, `DeprecationWarning: backend and device "
        "argument on jit is deprecated`, `UserWarning` for `jax.host_count()`; the next removal "
        "turns them into errors."
    ),
    example="```python\nfrom jax.experimental.pjit import pjit\nn = jax.host_count()\n```",
    use_instead="```python\nfrom jax import jit\nn = jax.process_count()\n```",
    fix_safety=(
        "`pjit` -> `jax.jit` and `host_*` -> `process_*` are safe renames (identical parameters). "
        "`jax.experimental.shard_map.shard_map` -> `jax.shard_map` is unsafe: `auto=` was removed "
        "and `check_rep` changed. `jit(backend=/device=)` has no fix."
    ),
    VALID=[
        Valid("import jax\n\nf = jax.jit(lambda x: x, donate_argnums=0)\nn = jax.process_count()\n"),
        Valid("import jax\nfrom jax import shard_map\n"),
        # a wrapper forwarding its own parameters
        Valid("import jax\n\ndef my_jit(fn, device=None, backend=None):\n    return jax.jit(fn, device=device, backend=backend)\n"),
    ],
    INVALID=[
        Invalid(
            "import jax\n\nn = jax.host_count()\ni = jax.host_id()\n",
            expected=[(3, 5), (4, 5)],
            fixed="import jax\n\nn = jax.process_count()\ni = jax.process_index()\n",
        ),
        Invalid(
            "from jax.experimental.pjit import pjit\n",
            expected=[(1, 35)],
            fixed="from jax import jit as pjit\n",
        ),
        Invalid(
            "import jax\n\nf = jax.jit(lambda x: x, backend='cpu')\n",
            expected=[(3, 26)],
        ),
        Invalid(
            "from jax.experimental.shard_map import shard_map\n",
            expected=[(1, 40)],
            fixed="from jax import shard_map\n",
            unsafe=True,
        ),
    ],
)

RemovedKeyword = _rule(
    "JAX903", "removed-jax-keyword",
    "A keyword argument JAX renamed or removed (`jnp.clip(a_min=...)`, `jnp.where(condition=...)`)", Severity.ERROR, "sometimes",
    what_it_does="Flags keyword arguments that current JAX no longer accepts:\n\n" + _table_doc("JAX903"),
    why_bad=(
        "They raise `TypeError` at the call: `TypeError: clip() got an unexpected keyword argument "
        "'a_min'` (removed in 0.10.0), `TypeError: where() got some positional-only arguments "
        "passed as keyword arguments: 'condition, x, y'`."
    ),
    example="```python\ny = jnp.clip(x, a_min=0., a_max=1.)\nz = jnp.where(condition=m, x=a, y=b)\n```",
    use_instead="```python\ny = jnp.clip(x, min=0., max=1.)\nz = jnp.where(m, a, b)\n```",
    fix_safety="Safe: the keywords are renamed or made positional in their documented order.",
    VALID=[
        Valid("import jax.numpy as jnp\n\ny = jnp.clip(jnp.ones(3), min=0., max=1.)\nz = jnp.where(y > 0, y, 0.)\n"),
        Valid("import numpy as np\n\ny = np.clip(np.ones(3), a_min=0., a_max=1.)\n"),
    ],
    INVALID=[
        Invalid(
            "import jax.numpy as jnp\n\ny = jnp.clip(jnp.ones(3), a_min=0., a_max=1.)\n",
            expected=[(3, 27), (3, 37)],
            fixed="import jax.numpy as jnp\n\ny = jnp.clip(jnp.ones(3), min=0., max=1.)\n",
        ),
        Invalid(
            "import jax.numpy as jnp\n\ndef f(m, a, b):\n    return jnp.where(condition=m, x=a, y=b)\n",
            expected=[(4, 22)],
            fixed="import jax.numpy as jnp\n\ndef f(m, a, b):\n    return jnp.where(m, a, b)\n",
        ),
    ],
)

RemovedArrayMethod = _rule(
    "JAX904", "removed-array-method",
    "A removed `jax.Array` attribute or method (`.device_buffer`, `.device_buffers`, `.to_py()`, `.device()`)", Severity.ERROR, "sometimes",
    what_it_does=(
        "Flags `x.device_buffer` and `x.device_buffers` (on anything that is not known to be a "
        "NumPy array or a module), and `x.to_py()` / `x.device()` on values the model knows are "
        "JAX arrays:\n\n" + _table_doc("JAX904")
    ),
    why_bad=(
        "`x.device_buffer` raises `AttributeError: arr.device_buffer has been deprecated. Use "
        "arr.addressable_data(0)`; `x.device()` raises `TypeError: 'Device' object is not "
        "callable` because `device` is now a property; `x.to_py()` raises `AttributeError`."
    ),
    example="```python\nx = jnp.ones(3)\nbuf = x.device_buffer\nd = x.device()\n```",
    use_instead="```python\nbuf = x.addressable_data(0)\nd = x.device\n```",
    fix_safety="Safe: the replacements are the ones JAX's own error messages give (`.device` verified on single-device arrays).",
    VALID=[
        Valid("import jax.numpy as jnp\nimport torch\n\nt = torch.ones(3)\nd = t.device\nx = jnp.ones(3)\ny = x.addressable_data(0)\n"),
        Valid("import jax\n\ndef f(obj):\n    return obj.device()\n"),
    ],
    INVALID=[
        Invalid(
            "import jax.numpy as jnp\n\nx = jnp.ones(3)\nbuf = x.device_buffer\nd = x.device()\n",
            expected=[(4, 7), (5, 5)],
            fixed="import jax.numpy as jnp\n\nx = jnp.ones(3)\nbuf = x.addressable_data(0)\nd = x.device\n",
        ),
        Invalid(
            "import numpy as np\nimport jax.numpy as jnp\n\nx = jnp.arange(4)\nv = x.to_py()\n",
            expected=[(5, 5)],
            fixed="import numpy as np\nimport jax.numpy as jnp\n\nx = jnp.arange(4)\nv = np.asarray(x)\n",
        ),
    ],
)

ConfigModuleImport = _rule(
    "JAX905", "jax-config-module-import",
    "`from jax.config import config`: the `jax.config` module was removed", Severity.ERROR, "always",
    what_it_does="Flags `from jax.config import config` (and uses of `jax.config.config`).",
    why_bad=(
        "The `jax.config` module was removed in JAX 0.4.29 (deprecated in 0.4.25): the import "
        "raises `ModuleNotFoundError: No module named 'jax.config'`. The configuration object is "
        "`jax.config` itself. Older tutorials (the Sharp Bits' x64 section among them) use the "
        "old import."
    ),
    example="```python\nfrom jax.config import config\nconfig.update('jax_enable_x64', True)\n```",
    use_instead="```python\nfrom jax import config\nconfig.update('jax_enable_x64', True)\n```",
    fix_safety="Safe: `from jax import config` binds the same configuration object under the same name.",
    VALID=[Valid("import jax\njax.config.update('jax_enable_x64', True)\nfrom jax import config\n")],
    INVALID=[
        Invalid(
            "from jax.config import config\nconfig.update('jax_enable_x64', True)\n",
            expected=[(1, 24)],
            fixed="from jax import config\nconfig.update('jax_enable_x64', True)\n",
        ),
        Invalid(
            "from jax.config import config as jcfg\n",
            expected=[(1, 24)],
            fixed="from jax import config as jcfg\n",
        ),
    ],
)

LegacyPrngKey = _rule(
    "JAX950", "legacy-prng-key",
    "Opt-in: `jax.random.PRNGKey` makes a legacy raw key; consider typed keys (`jax.random.key`)", Severity.INFO if hasattr(Severity, "INFO") else Severity.WARNING, "none",
    what_it_does=(
        "Opt-in suggestion, off by default. Flags `jax.random.PRNGKey(...)`. It is **not** "
        "deprecated (it runs silently on 0.10.2 and 0.12; its docstring calls it legacy)."
    ),
    why_bad=(
        "Legacy keys are plain `uint32[2]` arrays: arithmetic on them silently makes new keys, "
        "they can be indexed and converted with `np.asarray`, and JAX's key-reuse checker "
        "(`jax_debug_key_reuse`) does not see them. Typed keys (`jax.random.key`) reject those "
        "mistakes with errors."
    ),
    example="```python\nkey = jax.random.PRNGKey(0)\n```",
    use_instead="```python\nkey = jax.random.key(0)\n```",
    fix_safety=(
        "No automatic fix: shape, dtype, indexing, `np.asarray`, arithmetic and the shape of "
        "`split` results all differ between the two kinds of keys."
    ),
    VALID=[Valid("import jax\n\nkey = jax.random.key(0)\n")],
    INVALID=[Invalid("import jax\n\nkey = jax.random.PRNGKey(0)\n", expected=[(3, 7)])],
)
LegacyPrngKey.default_enabled = False
