"""The deprecation check: one matcher over ``jaxlint/model/deprecations.py`` (the
table of removed, renamed and deprecated JAX APIs) that reports several codes.

Each row's code comes from ``code_for``; the rules JAX901-JAX905 and JAX950 are
documentation and examples that name ``DeprecationCheck`` as their check, so the
engine runs it once per file for whichever of those codes are enabled.
"""

from __future__ import annotations

import string
from typing import Optional, Sequence

import libcst as cst

from jaxlint.engine.context import RuleContext
from jaxlint.engine.rule import Check, Replacement, RuleFix, fix
from jaxlint.findings import Applicability
from jaxlint.model import deprecations as D
from jaxlint.model import values as V
from jaxlint.model.version_guards import Guards
from jaxlint.model.walk import children, dotted_name, positional_args

SEED = "Renamed and removed APIs met in the seeds: `jax.tree_map`, `jax.ops.index_update`, `.device_buffer`, `from jax.config import config`, `jax.experimental.optimizers` (seeds 000-004)"


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
    lib = row.library
    if row.removed:
        dep = f" (deprecated in {row.deprecated})" if row.deprecated else ""
        if row.removed.startswith("by "):
            return f"was removed {row.removed.replace('by ', f'by {lib} ', 1)}{dep}"
        return f"was removed in {lib} {row.removed}{dep}"
    if row.deprecated and row.deprecated.startswith("by "):
        return f"is deprecated ({lib} {row.deprecated[3:]} warns on use)"
    if row.deprecated:
        return f"is deprecated since {lib} {row.deprecated}"
    return "is a legacy API"


def _submodule_import(target: str, text: str) -> tuple[tuple[str, None], ...]:
    """``import jax`` does not load ``jax.extend``/``jax.experimental``: a rename into one
    of them spelled from the top (``jax.extend.core.X``) needs ``import jax.extend.core``."""
    module = target.rpartition(".")[0]
    if module.startswith(("jax.extend", "jax.experimental")) and text.startswith(module + "."):
        return ((module, None),)
    return ()


def _head(node: cst.CSTNode) -> Optional[cst.Name]:
    while isinstance(node, cst.Attribute):
        node = node.value
    return node if isinstance(node, cst.Name) else None


def _atom(ctx, e: cst.BaseExpression) -> str:
    text = ctx.code(e).strip()
    if isinstance(e, (cst.Name, cst.Attribute, cst.Subscript, cst.Call)):
        return text
    return f"({text})"



class DeprecationCheck(Check):
    """Matches the table against names, imports, calls and attributes, once per
    node, and reports each match under its row's code (``code_for``)."""

    def __init__(self, ctx: RuleContext) -> None:
        super().__init__(ctx)
        self._skip: set[int] = set()
        self._guards: Optional[Guards] = None  # made at the file's first report (one walk)
        # for a rename whose calls need their arguments rewritten (a row with `call`):
        # id of a reference to the old name -> where it is used (see _use_sites)
        self._sites: dict[int, tuple[str, Optional[cst.Call]]] = {}

    # -- helpers -------------------------------------------------------------------
    @property
    def guards(self) -> Guards:
        if self._guards is None:
            self._guards = Guards(self.ctx.module, self.ctx.imports.resolve_dotted)
        return self._guards

    def _emit(self, row: D.Deprecation, node: cst.CSTNode, what: str, rfix: Optional[RuleFix] = None,
              via: Optional[str] = None) -> None:
        """Report ``row`` at ``node`` unless it is in a branch current JAX does not
        take (``version_guards``).  ``via``: the qualified name a use through a local
        alias stands for."""
        code = code_for(row)
        if code not in self.codes or id(node) in self.guards.dead:
            return
        note = f" ({row.note})" if row.note else ""
        shown = f"`{what}` (`{via}`)" if via is not None else f"`{what}`"
        if row.opt_in:
            msg = f"{shown} {_status(row)}; consider {row.new}{note}"
        elif row.new.startswith("nothing"):
            # "nothing public (copy the helper)": no replacement to name
            head, _, rest = row.new.partition(" (")
            msg = f"{shown} {_status(row)}, with {head} to use instead{' (' + rest if rest else ''}{note}"
        else:
            msg = f"{shown} {_status(row)}: use {row.new} instead{note}"
        self.report(node, msg, rfix, code=code)

    def _applic(self, row: D.Deprecation) -> Applicability:
        return Applicability.SAFE if row.fix == "safe" else Applicability.UNSAFE

    def _spell(self, qualname: str, node: Optional[cst.CSTNode] = None) -> Optional[str]:
        """``qualname`` written with the user's imports (keeping their alias)."""
        ctx = self.ctx
        if node is not None:
            head = _head(node)
            if head is not None:
                base = ctx.qualname(head)
                if base and qualname.startswith(base + "."):
                    return head.value + qualname[len(base):]
        best: Optional[tuple[str, str]] = None
        for local, full in ctx.imports.names.items():
            if qualname == full or qualname.startswith(full + "."):
                if ctx.qualname(cst.Name(local)) != full:
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
            edits: list[Replacement] = []
            if row.call is not None and q == row.old:
                site = self._sites.get(id(node))
                found = self._site_edits(row.call, site) if site is not None else None
                if found is None:
                    return None  # a use whose arguments are not seen, or do not map
                edits = found
            return fix(self._applic(row), f"Replace with `{text}`" + (_ARGS_NOTE if edits else ""),
                       Replacement(node, text), *edits, needs_import=_submodule_import(target, text))
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

    # -- renames whose calls change (rows with `call`) -------------------------------------
    def _note_decorator(self, dec: cst.BaseExpression) -> None:
        """``@old`` (a call with the function only) and ``@functools.partial(old, k=v)``."""
        ctx = self.ctx
        if isinstance(dec, (cst.Attribute, cst.Name)):
            if ctx.qualname(dec) in D.CALL_SHAPED:
                self._sites[id(dec)] = ("bare", None)
        elif isinstance(dec, cst.Call) and dec.args and dec.args[0].keyword is None and not dec.args[0].star:
            first = dec.args[0].value
            if isinstance(first, (cst.Attribute, cst.Name)) and ctx.qualname(first) in D.CALL_SHAPED \
                    and _is_partial(ctx, dec.func):
                self._sites[id(first)] = ("partial", dec)

    def _site_edits(self, shape: D.CallShape, site: tuple[str, Optional[cst.Call]]) -> Optional[list[Replacement]]:
        kind, call = site
        if kind == "bare" or call is None:
            return []
        if kind == "partial":
            return _call_edits(self.ctx, shape, call.args[1:], bound_later=True)
        return _call_edits(self.ctx, shape, call.args, bound_later=False)

    def _name_use_edits(self, shape: D.CallShape, local: str) -> Optional[list[Replacement]]:
        """For ``from OLD import name``: the edits of every use of ``name`` in the
        file (calls, decorators, ``@partial(name, ...)``); None when one use is of
        another kind (passed on, assigned, shadowed) or its arguments do not map.
        A walk of the file, only for a file importing such a name."""
        ctx = self.ctx
        edits: list[Replacement] = []
        stack: list[tuple[cst.CSTNode, tuple[cst.CSTNode, ...]]] = [(ctx.module, ())]
        while stack:
            n, up = stack.pop()
            if isinstance(n, (cst.Import, cst.ImportFrom)):
                continue
            if isinstance(n, cst.Name) and n.value == local:
                site = self._name_site(n, up)
                found = self._site_edits(shape, site) if site is not None else None
                if found is None:
                    return None
                edits.extend(found)
                continue
            if isinstance(n, cst.Attribute):
                stack.append((n.value, (*up, n)))  # `x.name` is another name
                continue
            below = (*up, n)
            stack.extend((c, below) for c in children(n))
        return edits

    def _name_site(self, name: cst.Name, up: tuple[cst.CSTNode, ...]) -> Optional[tuple[str, Optional[cst.Call]]]:
        parent = up[-1] if up else None
        if isinstance(parent, cst.Call) and parent.func is name:
            return ("call", parent)
        if isinstance(parent, cst.Decorator) and parent.decorator is name:
            return ("bare", None)
        if isinstance(parent, cst.Arg) and parent.value is name and len(up) >= 3:
            call, dec = up[-2], up[-3]
            if isinstance(call, cst.Call) and isinstance(dec, cst.Decorator) and dec.decorator is call \
                    and call.args and call.args[0] is parent and _is_partial(self.ctx, call.func):
                return ("partial", call)
        return None

    # -- attribute / name uses -----------------------------------------------------------
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
        q = ctx.qualname(node)
        if q is None:
            self._check_method(node)
            return
        row = D.lookup(q)
        if row is None:
            # the model canonicalises some aliases (`jax.ad_checkpoint.checkpoint` is
            # `jax.checkpoint` to it); the table is about the spelling
            q = self._spelled_qualname(node) or q
            row = D.lookup(q)
        if row is None:
            return
        head = _head(node)
        if head is not None and head.value not in ctx.imports.names and ctx.lookup(head.value) is not None:
            # a name the code bound to a removed API (`env = maps.thread_resources.env`):
            # reported where it is bound; a use of it is that same finding again
            self._mark_chain(node)
            return
        if (head is not None and (ctx.imports.names.get(head.value) or "").startswith(("jax._src", "jaxlib."))
                and not row.old.startswith(("jax._src", "jaxlib."))):
            self._mark_chain(node)
            return  # JAX's internals keep names the public API removed (not a row of jaxlib's own)
        if head is not None:
            base = ctx.imports.names.get(head.value)
            if base is not None and base != head.value and D.lookup(base) is not None:
                # a use through the alias an import of a removed module or name bound
                # (`hcb.id_print(x)`, `optimizers.adam(...)`): reported where that import
                # is, alone, in code current JAX runs (a shim's alias is not); the
                # import's own fix, where it has one, repairs the use
                self._mark_chain(node)
                if self.guards.only_live_import(head.value):
                    self._emit(row, node, ctx.code(node).strip(), via=q)
                return
        self._mark_chain(node)
        self._emit(row, node, ctx.code(node).strip(), self._rename_fix(row, q, node))

    def _spelled_qualname(self, node: cst.Attribute) -> Optional[str]:
        """``node``'s dotted name with its head resolved through the imports only."""
        dotted = dotted_name(node)
        head = _head(node)
        if dotted is None or head is None or self.ctx.qualname(head) is None:
            return None
        return self.ctx.imports.spelled(dotted)

    def _check_method(self, node: cst.Attribute) -> None:
        attr = node.attr.value
        if attr not in ("device_buffer", "device_buffers"):
            return
        row = D.METHODS[attr]
        ctx = self.ctx
        v = ctx.value(node.value)
        if v.kind in (V.NPARRAY, V.STATIC, V.MODULE, V.FUNCTION):
            return
        base = _atom(ctx, node.value)
        if attr == "device_buffer":
            new = f"{base}.addressable_data(0)"
        else:
            new = f"[s.data for s in {base}.addressable_shards]"
        self._emit(row, node, ctx.code(node).strip(), fix(Applicability.SAFE, f"Replace with `{new}`", Replacement(node, new)))

    def _scan_annotation(self, ann: Optional[cst.Annotation]) -> None:
        if ann is None or type(ann.annotation) is cst.Name:
            return  # a bare name: a removed one is reported at its import
        stack: list[cst.CSTNode] = [ann.annotation]
        while stack:
            n = stack.pop()
            if isinstance(n, cst.Attribute):
                self._check_expr(n)
            stack.extend(reversed(list(children(n))))

    def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
        for dec in node.decorators:
            self._note_decorator(dec.decorator)
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
                # a top-level module (`from jax import jax as jx` -> `import jax as jx`)
                text = (f"from {imp[0]} import {imp[1]}" if imp[0] else f"import {imp[1]}") \
                    + (f" as {local}" if local != imp[1] else "")
                edits: Optional[list[Replacement]] = []
                if row.call is not None and full == row.old:
                    edits = self._name_use_edits(row.call, local)
                if edits is not None:
                    rfix = fix(self._applic(row), f"Replace with `{text}`" + (_ARGS_NOTE if edits else ""),
                               Replacement(node, text), *edits)
        self._emit(row, alias, f"from {full.rpartition('.')[0]} import {alias.name.value}", rfix)  # type: ignore[union-attr]

    # -- calls: keyword arguments, special rewrites, array methods ------------------------
    def visit_Call(self, node: cst.Call) -> None:
        ctx = self.ctx
        func = node.func
        q = ctx.qualname(func)
        if q is not None:
            if q in _CONFIG_UPDATE and node.args and node.args[0].keyword is None \
                    and isinstance(node.args[0].value, cst.SimpleString):
                flag = D.FLAGS.get(node.args[0].value.evaluated_value or "")
                if flag is not None:
                    # `jax.config.update("jax_array", True)`: AttributeError, "Unrecognized config option"
                    self._emit(flag, node.args[0].value, f'jax.config.update("{flag.old}", ...)')
                return
            if q in D.CALL_SHAPED and isinstance(func, (cst.Attribute, cst.Name)):
                self._sites[id(func)] = ("call", node)
            kw_rows = D.KWARGS.get(q)
            head = _head(func)
            if head is not None and (ctx.imports.names.get(head.value) or "").startswith("jax._src"):
                return
            if kw_rows:
                self._kwargs(node, q, kw_rows)
            row = D.BY_NAME.get(q)
            if row is not None and row.fix is not None and id(func) not in self._skip:
                rfix = self._call_fix(node, q, row)
                if rfix is not None:
                    self._mark_chain(func)
                    self._emit(row, func, ctx.code(func).strip(), rfix)
                    return
            if isinstance(func, cst.Name) and (func.value in ctx.imports.names or func.value in ctx.imports.ambiguous) \
                    and id(func) not in self._skip:
                # the call site of a name imported from a removed API (`from
                # jax.experimental.host_callback import id_print` ... `id_print(x)`), or
                # from several (each import of it removed: whichever binds it, it is gone)
                row = D.lookup(q)
                if row is not None and row.removed and not _drop_in(ctx, row, func.value, q, node) \
                        and self._removed_binding(func.value):
                    self._emit(row, func, func.value, via=q)
            return
        if isinstance(func, cst.Attribute) and func.attr.value in _REMOVED_CALLED_METHODS:
            if ctx.value(func.value).kind == V.ARRAY:
                self._emit(D.METHODS[func.attr.value], node, ctx.code(node).strip(), None)
            return
        if isinstance(func, cst.Attribute) and func.attr.value in ("to_py", "device") and not node.args:
            v = ctx.value(func.value)
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
                    new = f"{np_name}({ctx.code(func.value).strip()})"
                    rfix = fix(Applicability.SAFE, f"Replace with `{new}`", Replacement(node, new))
            self._emit(row, node, ctx.code(node).strip(), rfix)

    def _removed_binding(self, local: str) -> bool:
        """Is every import binding ``local`` a live import of a removed API (one, or
        several that each import a removed name: whichever runs last, the name is gone)?"""
        if self.guards.only_live_import(local):
            return True
        names = self.guards.live_imports(local)
        if names is None:
            return False
        for full in names:
            row = D.lookup(full)
            if row is None or not row.removed:
                return False
        return True

    def _call_fix(self, node: cst.Call, q: str, row: D.Deprecation) -> Optional[RuleFix]:
        ctx = self.ctx
        pos = positional_args(node)
        if len(pos) != len(node.args):
            return None
        short = q.rsplit(".", 1)[1]
        methods = {"index_update": "set", "index_add": "add", "index_mul": "multiply", "index_min": "min", "index_max": "max"}
        if q.startswith("jax.ops.") and short in methods and len(pos) == 3:
            x, idx, v = (a.value for a in pos)
            if isinstance(idx, cst.Subscript) and ctx.qualname(idx.value) == "jax.ops.index":
                # the call's finding and fix cover `jax.ops.index[...]` on its line; one on a
                # line of its own is reported there too (it raises AttributeError itself)
                head = ctx.code(node.with_changes(args=node.args[:1]))
                if "\n" not in head:
                    self._mark_chain(idx.value)
                index_text = ", ".join(ctx.code(el).strip().rstrip(",").strip() for el in idx.slice)
            else:
                index_text = ctx.code(idx).strip()
            new = f"{_atom(ctx, x)}.at[{index_text}].{methods[short]}({ctx.code(v).strip()})"
            return fix(self._applic(row), f"Replace with `{new}`", Replacement(node, new))
        if q == "jax.random.shuffle" and len(pos) == 2:
            perm = self._spell("jax.random.permutation", node.func)
            if perm is None:
                return None
            new = f"{perm}({ctx.code(pos[0].value).strip()}, {ctx.code(pos[1].value).strip()}, independent=True)"
            return fix(self._applic(row), f"Replace with `{new}`", Replacement(node, new))
        if q == "jax.numpy.msort" and len(pos) == 1:
            sort = self._spell("jax.numpy.sort", node.func)
            if sort is None:
                return None
            new = f"{sort}({ctx.code(pos[0].value).strip()}, axis=0)"
            return fix(self._applic(row), f"Replace with `{new}`", Replacement(node, new))
        return None

    def _kwargs(self, node: cst.Call, q: str, rows: dict[str, D.Deprecation]) -> None:
        hits = [(a, rows[a.keyword.value]) for a in node.args
                if a.keyword is not None and a.keyword.value in rows
                and not (rows[a.keyword.value].removed is None and self._forwarded(a.value))]
        if not hits:
            return
        rfix = None
        if all(r.fix is not None for _, r in hits):
            rfix = self._kwarg_fix(node, q, rows)
        for i, (arg, row) in enumerate(hits):
            self._emit(row, arg, f"{q.replace('jax.numpy.', 'jnp.')}({arg.keyword.value}=...)", rfix)  # type: ignore[union-attr]

    def _forwarded(self, value: cst.BaseExpression) -> bool:
        """May ``value`` be None?  JAX warns about a deprecated keyword such as
        ``jit(backend=...)`` only when it is set, so only a value that is surely set
        is reported: a string (``backend="cpu"``), a device (``jax.devices()[0]``), or
        a name bound only to those.  ``None``, a parameter passed through (a wrapper
        forwarding ``device=device``), an attribute or a config look-up may be None."""
        return not self._surely_set(value, 0)

    def _surely_set(self, value: cst.BaseExpression, depth: int) -> bool:
        if isinstance(value, (cst.SimpleString, cst.ConcatenatedString, cst.FormattedString, cst.Integer,
                              cst.Float)) or (isinstance(value, cst.Name) and value.value in ("True", "False")):
            return True  # (`use_magma=False` warns as `True` does: any value but None)
        if isinstance(value, (cst.Call, cst.Subscript)):
            base = value
            while isinstance(base, (cst.Call, cst.Subscript)):
                base = base.func if isinstance(base, cst.Call) else base.value
            q = self.ctx.qualname(base) or ""
            return q in ("jax.devices", "jax.local_devices")
        if isinstance(value, cst.Name) and depth < 3 and value.value != "None":
            unit = self.ctx.unit
            if unit.param(value.value) is not None:
                return False
            found = unit.binding_for(value.value, 1 << 30)
            if found is None:
                return False
            holder, _ = found
            entries = holder.bindings.get(value.value) or []
            return bool(entries) and all(e is not None and self._surely_set(e, depth + 1) for _, e in entries)
        return False

    def _kwarg_fix(self, node: cst.Call, q: str, rows) -> Optional[RuleFix]:
        """Rename each removed keyword in place (`a_min=` -> `min=`) and drop the name of
        one that became positional-only (`jnp.where(condition=c, x=a, y=b)`): edits of the
        keywords alone, so the values, the commas and any comment between the arguments
        stay as they are."""
        ctx = self.ctx
        order = {"jax.numpy.clip": ["a"], "jax.numpy.where": ["condition", "x", "y"]}.get(q, [])
        if any(a.star for a in node.args):
            return None
        n_pos = len(positional_args(node))
        keywords = [a for a in node.args if a.keyword is not None]
        moved = [a for a in keywords if a.keyword.value in order]
        if moved:
            # keywords that become positional must continue the positional list, in order,
            # before any other keyword
            names = [a.keyword.value for a in moved]
            if sorted(names, key=order.index) != order[n_pos:n_pos + len(names)]:
                return None
            if names != order[n_pos:n_pos + len(names)] or [id(a) for a in keywords[:len(moved)]] != [id(a) for a in moved]:
                return self._rebuilt_call(node, rows, moved, order)  # out of order: the call written anew
        moved_ids = {id(a) for a in moved}
        edits: list[Replacement] = []
        shown = []
        for a in node.args:
            if a.keyword is None:
                shown.append(ctx.code(a.value).strip())
            elif id(a) in moved_ids:
                edits.append(Replacement(a, ctx.code(a.value).strip()))
                shown.append(ctx.code(a.value).strip())
            else:
                row = rows.get(a.keyword.value)
                new_name = row.new_qualname if row is not None and row.new_qualname else a.keyword.value
                if new_name != a.keyword.value:
                    edits.append(Replacement(a.keyword, new_name))
                shown.append(f"{new_name}={ctx.code(a.value).strip()}")
        if not edits:
            return None
        new = f"{ctx.code(node.func).strip()}({', '.join(shown)})"
        return fix(Applicability.SAFE, f"Replace with `{new}`", *edits)

    def _rebuilt_call(self, node: cst.Call, rows, moved: list[cst.Arg], order: list[str]) -> RuleFix:
        """`jnp.where(x=a, condition=c, y=b)` -> `jnp.where(c, a, b)`: the keywords that
        became positional, in their order, then the others renamed (a comment inside
        the call would be lost: the engine withholds such a fix)."""
        ctx = self.ctx
        parts = [ctx.code(a.value).strip() for a in positional_args(node)]
        parts += [ctx.code(a.value).strip() for a in sorted(moved, key=lambda a: order.index(a.keyword.value))]
        moved_ids = {id(a) for a in moved}
        for a in node.args:
            if a.keyword is not None and id(a) not in moved_ids:
                row = rows.get(a.keyword.value)
                name = row.new_qualname if row is not None and row.new_qualname else a.keyword.value
                parts.append(f"{name}={ctx.code(a.value).strip()}")
        new = f"{ctx.code(node.func).strip()}({', '.join(parts)})"
        return fix(Applicability.SAFE, f"Replace with `{new}`", Replacement(node, new))


_ARGS_NOTE = ", with the arguments it takes"


def _is_partial(ctx, func: cst.BaseExpression) -> bool:
    return ctx.qualname(func) == "functools.partial"


def _call_edits(ctx, shape: D.CallShape, args: Sequence[cst.Arg], bound_later: bool) -> Optional[list[Replacement]]:
    """The edits that turn ``args`` of a call of the old function into the new
    one's; None when one does not map (``*args``/``**kwargs``, an unknown keyword, a
    keyword for a parameter the new function takes only by position, too many
    positional arguments).  ``bound_later``: the arguments of
    ``functools.partial(old, ...)``, whose function comes at the call: keywords only."""
    edits: list[Replacement] = []
    renamed = dict(shape.renamed)
    derived = dict(shape.derived)
    given: dict[str, cst.Arg] = {}
    index = 0
    for a in args:
        if a.star:
            return None
        if a.keyword is None:
            if bound_later or index >= len(shape.params):
                return None
            name = shape.params[index]
            index += 1
            given[name] = a
            if index > shape.positional:
                new = renamed.get(name, name)
                edits.append(Replacement(a.value, f"{new}={ctx.code(a.value).strip()}"))
            continue
        k = a.keyword.value
        given[k] = a
        if k in derived:
            continue
        if k in shape.positional_only:
            return None  # the new function takes it by position only
        if k in renamed:
            edits.append(Replacement(a.keyword, renamed[k]))
        elif k not in shape.params and k not in shape.keywords:
            return None
    for k, (new, template) in derived.items():
        a = given.get(k)
        if a is None:
            continue
        texts = {}
        for _, field_name, _, _ in string.Formatter().parse(template):
            if field_name is None or field_name in texts:
                continue
            other = given.get(field_name)
            if other is None:
                return None
            if field_name != k and dotted_name(other.value) is None:
                return None  # written twice: only a plain name
            texts[field_name] = ctx.code(other.value).strip()
        assert a.keyword is not None
        edits.append(Replacement(a.keyword, new))
        edits.append(Replacement(a.value, template.format(**texts)))
    return edits


# removed methods of JAX arrays reported where they are called on a known JAX array
_REMOVED_CALLED_METHODS = frozenset({"split", "broadcast", "broadcast_in_dim", "tile"})


def table_doc(code: str) -> str:
    rows = [r for r in D.TABLE if code_for(r) == code]
    lines = ["| old | use instead | deprecated | removed | fix | source |", "| --- | --- | --- | --- | --- | --- |"]
    for r in rows:
        old = r.old if r.kind != "kwarg" else f"{r.function}({r.old}=...)"
        if r.kind == "method":
            old = f"x.{r.old}" + ("()" if r.old in ("to_py", "device") else "(...)" if r.old in _REMOVED_CALLED_METHODS else "")
        if r.kind == "module":
            old += " (module)"
        if r.kind == "flag":
            old = f'jax.config.update("{r.old}", ...)'
        dep, rem = r.deprecated or "-", r.removed or "-"
        if r.library != "JAX":
            dep, rem = (f"{r.library} {v}" if v != "-" else v for v in (dep, rem))
        lines.append(f"| `{old}` | {r.new} | {dep} | {rem} | {r.fix or 'none'} | {_source(r)} |")
    return "\n".join(lines)


def _source(row: D.Deprecation) -> str:
    """The row's citation, short: the CHANGELOG versions (the quoted lines are in
    ``jaxlint/model/deprecations.py``)."""
    cites = []
    for part in row.changelog.split(" | "):
        head, sep, _ = part.partition(": ")
        if not sep or not head[:1].isdigit() and not head.startswith("Flax "):
            cites.append(part.replace("|", "/"))
        elif head.startswith("Flax "):
            cites.append(f"Flax CHANGELOG {head[5:]}")
        else:
            cites.append(f"CHANGELOG {head}")
    return ", ".join(dict.fromkeys(cites))


# `jax.config.update(...)`, also through `from jax import config` and the old
# `from jax.config import config` (itself JAX905)
_CONFIG_UPDATE = frozenset({"jax.config.update", "jax.config.config.update"})


def _drop_in(ctx, row: D.Deprecation, local: str, qualname: str, call: Optional[cst.Call] = None) -> bool:
    """A removed name imported under an alias of the user's (`PartitionSpec as P`) whose
    replacement is the same callable under a new path, taking every call the old one
    took: the import's fix keeps the alias (`from jax.sharding import PartitionSpec as
    P`) and so mends every call of it; a call is that import's finding again (fresh set
    20: 35 calls of `P(...)` under two reported imports). A call spelled with the
    removed name itself (`tree_multimap(...)`, renamed at the call by the fix) or of a
    name with no drop-in replacement (`id_print(x)`) needs its own change: reported.  A
    row whose call shape changed (`with_sharding_constraint(x, axis_resources=s)`: the
    keyword is gone) is a drop-in only at a call whose arguments the new function takes
    as they are written (`wsc(x, P("data"))`); another call is reported, with the change
    it needs."""
    if not (row.fix == "safe" and row.new_qualname is not None and row.import_from is not None
            and local != qualname.rpartition(".")[2]):
        return False
    return row.call is None or call is not None and _call_edits(ctx, row.call, call.args, bound_later=False) == []
