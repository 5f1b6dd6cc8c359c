"""Bindings and scopes of the interpreter (after Ruff's ``SemanticModel``).

What a name stands for where the walk stands: the environment of the current unit
(journaled, so a branch costs what it writes), the enclosing function's bindings
and the module's; the qualified name an expression resolves to; the identity of
the PRNG keys that names and attribute chains hold; the frames of the loops being
walked, and what happens where control-flow paths meet.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Optional

import libcst as cst

from jaxlint.model import apis
from jaxlint.model import values as V
from jaxlint.model.journal import MISSING, JournalDict
from jaxlint.model.keyflow import key_like_name
from jaxlint.model.units import Unit
from jaxlint.model.values import KeyToken, Value
from jaxlint.model.walk import dotted_name, string_value


class _EntryKeys:
    """The PRNG keys consumed when a loop was entered (``token in ...``), and the
    ones the rules add for that state (``[token] = site``); read while the loop's
    frame is open."""

    __slots__ = ("_consumed", "_depth", "extra")

    def __init__(self, consumed: JournalDict, depth: int) -> None:
        self._consumed = consumed
        self._depth = depth
        self.extra: dict = {}

    def __contains__(self, token: object) -> bool:
        return token in self.extra or self._consumed.value_at(self._depth, token) is not MISSING

    def __setitem__(self, token: KeyToken, site: tuple) -> None:
        self.extra[token] = site

class LoopFrame:
    """A loop (or comprehension) being walked.  Opens a journal frame on the
    environment and on the consumed keys: the state at entry is what those frames
    undo to, read only when a rule asks (``entry_env``, ``entry_consumed``)."""

    def __init__(self, node: cst.CSTNode, depth: int, env: JournalDict, consumed: JournalDict) -> None:
        self.node = node
        self.depth = depth
        self.rebound: set[str] = set()
        self._env = env
        self._env_depth = env.open()
        self._entry_env: Optional[dict[str, Value]] = None
        self.entry_consumed = _EntryKeys(consumed, consumed.open())

    @property
    def entry_env(self) -> dict[str, Value]:
        """The environment when the loop was entered (a copy, made on first use)."""
        if self._entry_env is None:
            self._entry_env = self._env.snapshot_at(self._env_depth)
        return self._entry_env


class Bindings:
    """Name resolution and binding for ``Interpreter`` (a mixin: the state lives on
    the interpreter, set up in its ``__init__``)."""

    def qualname(self, expr: cst.CSTNode) -> Optional[str]:
        """The qualified name an expression stands for (``jnp.zeros`` ->
        ``jax.numpy.zeros``), or None.  Local bindings shadow imports."""
        key = id(expr)
        memo = self._qn_memo
        if key in memo:
            return memo[key]
        q: Optional[str] = None
        t = type(expr)
        if t is cst.Name:
            v = self.lookup(expr.value)
            q = v.qualname if v is not None else self.imports.resolve_expr(expr)
        elif t is cst.Attribute:
            base = self.qualname(expr.value)
            if base is not None:
                q = apis.canonical(f"{base}.{expr.attr.value}")
            if self.imports.aliases and type(expr.value) is cst.Attribute:
                # `fm.random.split` with `random = jax.random` in the project's module `fm`
                # (a library name it re-exports: model/imports.py)
                head = expr.value
                while type(head) is cst.Attribute:
                    head = head.value
                if type(head) is cst.Name and self.qualname(head) is not None \
                        and self.qualname(head) == self.imports.resolve_expr(head):  # the import, not a local
                    d = dotted_name(expr)
                    known = self.imports.aliases.get(d.rsplit(".", 1)[0]) if d is not None else None
                    if known is not None:
                        q = apis.canonical(f"{known}.{expr.attr.value}")
        memo[key] = q
        return q

    def builtin_name(self, expr: cst.CSTNode) -> Optional[str]:
        """``print``/``next``/``int``... when ``expr`` names an unshadowed builtin."""
        if isinstance(expr, cst.Name) and self.lookup(expr.value) is None:
            if self.imports.resolve_expr(expr) is None and expr.value not in self.imports.ambiguous:
                import builtins

                if hasattr(builtins, expr.value):
                    return expr.value
        return None

    def lookup(self, name: str) -> Optional[Value]:
        """The value ``name`` is bound to here: a local on this path, then the
        enclosing function's bindings, then the module's; None when unbound (an
        import or a builtin)."""
        v = self.env.get(name)
        if v is not None:
            return v
        unit = self.unit
        if name in unit.assigned and not unit.is_module and name not in unit.global_names:
            return V.UNKNOWN_VALUE  # a local not bound on this path (yet)
        if unit.closure_env is not None:
            v = unit.closure_env.get(name)
            if v is not None:
                return v
        if not unit.is_module:
            v = self.module_env.get(name)
            if v is not None:
                return v
        return None

    # -- PRNG keys --------------------------------------------------------------
    def key_token(self, expr: cst.CSTNode) -> Optional[KeyToken]:
        """The identity of the key an expression holds (Names, ``a.b`` chains
        and literal subscripts of key arrays); None when it cannot be tracked."""
        if isinstance(expr, cst.Name):
            v = self.lookup(expr.value)
            if v is None and (self.index.imported_values.get(expr.value) or {}).get("key"):
                # `from config import KEY`: a module-level key of another module, one object
                # for every read of the name here (as `config.KEY` below)
                token = self._attr_tokens.get(expr.value)
                if token is None:
                    token = self._attr_tokens[expr.value] = KeyToken(expr, len(self.loop_stack), expr.value)
                return token
            if v is None or v.kind in (V.MODULE, V.FUNCTION, V.STATIC, V.TUPLE):
                return None
            if v.key is None:
                depth = 0
                for i, frame in enumerate(self.loop_stack):
                    if expr.value in frame.rebound:
                        depth = i + 1
                        break
                token = KeyToken(expr, depth, expr.value)
                self._rebind_key(expr.value, v.with_key(token))
                return token
            return v.key
        if isinstance(expr, cst.Attribute):
            dotted = dotted_name(expr)
            if dotted is None:
                return None
            token = self._attr_tokens.get(dotted)
            if token is None:
                token = KeyToken(expr, len(self.loop_stack), dotted)
                self._attr_tokens[dotted] = token
            return token
        return self.value(expr).key

    def _rebind_key(self, name: str, v: Value) -> None:
        if name in self.env:
            self.env[name] = v
        elif self.unit.closure_env is not None and name in self.unit.closure_env:
            self.unit.closure_env[name] = v
        else:
            self.env[name] = v

    def _rebind_attr_keys(self, name: str, value_node: Optional[cst.CSTNode]) -> None:
        """``name`` now holds another object: the keys known on its attributes
        (``state.key``) are forgotten, except those a record copy keeps
        (``state = state._replace(step=1)`` keeps ``state.key``) or sets
        (``state._replace(key=k)``: ``state.key`` is the key ``k``)."""
        prefix = name + "."
        old = {k: t for k, t in self._attr_tokens.items() if k.startswith(prefix)}
        rec = replaced_record(value_node, self.qualname) if value_node is not None else None
        kept: dict[str, KeyToken] = {}
        if rec is not None:
            src, fields = rec
            src_prefix = src + "."
            source = old if src == name else {k: t for k, t in self._attr_tokens.items() if k.startswith(src_prefix)}
            for k, t in source.items():
                field = k[len(src_prefix):].split(".", 1)[0]
                if field not in fields:
                    kept[prefix + k[len(src_prefix):]] = t
            for field, expr in fields.items():
                if isinstance(expr, (cst.Name, cst.Attribute, cst.Subscript)) and (
                        self.value(expr).kind == V.KEY or key_like_name(field)):
                    tok = self.key_token(expr)
                    if tok is not None:
                        kept[prefix + field] = tok
        for k in old:
            del self._attr_tokens[k]
        self._attr_tokens.update(kept)

    def attr_key(self, dotted: str) -> Optional[KeyToken]:
        """The key identity already given to an attribute chain (``self.key``)."""
        return self._attr_tokens.get(dotted)

    def consume_key(self, token: KeyToken, node: cst.CSTNode, how: str) -> Optional[tuple[cst.CSTNode, str]]:
        """Mark a key consumed; return the earlier consumption if it was."""
        prev = self.consumed.get(token)
        if prev is None:
            self.consumed[token] = (node, how)
        return prev

    def _subscript_key(self, e: cst.Subscript, base: Value) -> KeyToken:
        index = f"[{self.code(e.slice[0]) if e.slice else ''}]"
        # the slot is keyed by the array's own token: `keys = split(...)` again is another
        # array, whose `keys[0]` is a fresh key even though it is written the same way
        owner = base.key
        if owner is None and isinstance(e.value, (cst.Name, cst.Attribute)):
            owner = self.key_token(e.value)  # a name's array gets its identity now
        if owner is None:
            # a call's result (`split(self.key, num=1)[0]`): a new array each time it is
            # evaluated, whose element is no other expression's key
            slot = f"@{id(e)}{index}"
        else:
            slot = f"#{owner.serial}{index}"
        token = self._attr_tokens.get(slot)
        if token is None:
            # the label is what messages show: `rngs[1]`, as written
            token = KeyToken(e, len(self.loop_stack), self.code(e).strip())
            if all(isinstance(el.slice, cst.Index) and isinstance(el.slice.value, (cst.Integer, cst.UnaryOperation)) for el in e.slice):
                self._attr_tokens[slot] = token
        return token

    def _alias_of(self, name: str, unit: Optional[Unit] = None) -> Optional[str]:
        """The parameter ``name`` is a copy of (``nbrs = neighbors``, bound once, the
        parameter never rebound), or None."""
        unit = unit or self.unit
        entries = unit.bindings.get(name)
        if not entries or len(entries) != 1 or unit.param(name) is not None:
            return None
        value = entries[0][1]
        if isinstance(value, cst.Name) and unit.param(value.value) is not None and value.value not in unit.assigned:
            return value.value
        return None

    # -- paths: journal frames on the environment and the consumed keys ---------
    def _open(self) -> None:
        self.env.open()
        self.consumed.open()

    def _close(self) -> tuple[dict, dict]:
        """Undo the path walked since ``_open``; return what it changed (env, consumed)."""
        return self.env.close(), self.consumed.close()

    def _join(self, states: list[tuple[dict, dict]]) -> None:
        """Where paths meet: apply their changes (as ``_close`` returns them) to the
        state they started from.  A name some path wrote gets the join of its
        values on every path (a path that did not write it has the value from
        before; a path where it is unbound does not count); consumed keys are the
        union, the first path's site first.  Costs what the paths wrote."""
        if len(states) == 1:
            env_changes, consumed_changes = states[0]
            self.env.apply(env_changes)
            self.consumed.apply(consumed_changes)
            return
        env = self.env
        names: dict[str, None] = {}
        for e, _ in states:
            names.update(dict.fromkeys(e))
        for n in names:
            before = env.get(n, MISSING)
            present = [v for v in (e.get(n, before) for e, _ in states) if v is not MISSING]
            if not present:
                env.pop(n, None)
                continue
            merged = present[0]
            for v in present[1:]:
                merged = V.join(merged, v)
            if merged.key is None and before is not MISSING and before.key is None:
                # a key given its identity on one path only (`if train: x = draw(key)`,
                # identities are made at first use): still the one value from before the
                # branch, not a new key, where every other path left it as it was
                tokens = {v.key for v in present if v.key is not None}
                if len(tokens) == 1:
                    token = next(iter(tokens))
                    if all(v is before or v == before or v == before.with_key(token) for v in present):
                        merged = before.with_key(token)
            env[n] = merged
        consumed = self.consumed
        for _, c in states:
            for k, site in c.items():
                if site is not MISSING and k not in consumed:
                    consumed[k] = site

    def _forget_aliases(self, name: str, held: Value, entry: Optional[str] = None) -> None:
        """A dict whose entries the model knows (``held``, the value of ``name``) is
        changed through ``name`` (its entry ``entry``, or any): another name that may
        hold the same dict (``b2 = buf``; a value equal to it, which an alias is) knows
        nothing of that entry from here."""
        env = self.env
        for other, v in list(env.items()):
            if other != name and v is not None and (v is held or v == held):
                kept = tuple(f for f in v.fields or () if entry is not None and f[0] != entry) or None
                item = None if v.item is not None and v.item.kind == V.ARRAY and not v.item.traced else v.item
                env[other] = replace_value(v, fields=kept, item=item)

    def _bind(self, target: cst.CSTNode, v: Value, value_node: Optional[cst.CSTNode] = None) -> None:
        if isinstance(target, cst.Name):
            name = target.value
            self.not_none.discard(name)
            if self.loop_stack:
                for frame in self.loop_stack:
                    frame.rebound.add(name)
            if v.kind == V.ARRAY and value_node is not None and v.local_array:
                # an alias of a locally created array is no longer "unaliased"
                pass
            if isinstance(value_node, cst.Name) and v.local_array:
                # y = x: both names now refer to one buffer
                v = replace_value(v, local_array=False)
                src = self.env.get(value_node.value)
                if src is not None:
                    self.env[value_node.value] = replace_value(src, local_array=False)
            if v.kind == V.KEYS and value_node is not None:
                v = v.with_key(KeyToken(value_node, len(self.loop_stack), name))
            self.env[name] = v
            if self._attr_tokens or type(value_node) is cst.Call:
                self._rebind_attr_keys(name, value_node)
            return
        if isinstance(target, (cst.Tuple, cst.List)):
            elements = target.elements
            starred = any(isinstance(e.value, cst.StarredElement) for e in elements)
            for i, el in enumerate(elements):
                sub = el.value
                if isinstance(sub, cst.StarredElement):
                    ev = Value(kind=V.KEYS if v.kind == V.KEYS else V.UNKNOWN, traced=v.traced, deps=v.deps)
                    if ev.kind == V.KEYS:
                        ev = ev.with_key(KeyToken(sub, len(self.loop_stack), "*"))
                    self._bind(sub.value, ev)
                    continue
                if v.elements is not None and not starred and len(v.elements) == len(elements):
                    ev = v.elements[i]
                elif v.kind == V.KEYS:
                    # a key stored on an attribute (`self._rng, rng = split(self._rng)`) is
                    # known by its chain, which is what a loop sees replaced
                    label = (dotted_name(sub) if isinstance(sub, cst.Attribute) else None) or "split"
                    ev = Value(kind=V.KEY, key=KeyToken(sub, len(self.loop_stack), label))
                elif v.kind == V.ARRAYS and v.item is not None:
                    ev = v.item
                else:
                    ev = Value(kind=V.ARRAY if v.kind == V.ARRAY else V.UNKNOWN, traced=v.traced, deps=v.deps)
                self._bind(sub, ev)
            return
        if isinstance(target, cst.Attribute):
            dotted = dotted_name(target)
            if dotted is not None:
                for frame in self.loop_stack:
                    frame.rebound.add(dotted)
                for k in [k for k in self._attr_tokens if k == dotted or k.startswith(dotted + ".")]:
                    del self._attr_tokens[k]
                if v.key is not None and v.kind == V.KEY:
                    self._attr_tokens[dotted] = v.key
            base = target.value
            if type(base) is cst.Name:
                inst = self.env.get(base.value)
                if inst is not None and inst.fields is not None:
                    # `p.w = ...`: the field now holds what is assigned
                    attr = target.attr.value
                    kept = tuple((n, fv) for n, fv in inst.fields if n != attr)
                    if not v.traced and v.kind in (V.ARRAY, V.NPARRAY, V.KEY, V.KEYS, V.ITERATOR):
                        kept += ((attr, Value(kind=v.kind)),)
                    self.env[base.value] = replace_value(inst, fields=kept or None)
            return
        if isinstance(target, cst.Subscript) and type(target.value) is cst.NamedExpr:
            # `(b := buf)["obs"] = ...`: the entries of both names' dict are unknown from here
            named = target.value
            for n in (named.target, named.value):
                if type(n) is cst.Name:
                    held = self.env.get(n.value)
                    if held is not None and held.kind == V.LIST and held.fields is not None:
                        self._forget_aliases(n.value, held)
                        self.env[n.value] = replace_value(held, fields=None)
            return
        if isinstance(target, cst.Subscript) and type(target.value) is cst.Name:
            held = self.env.get(target.value.value)
            arrays = held is not None and held.kind == V.LIST and held.item is not None \
                and held.item.kind == V.ARRAY and not held.item.traced
            if held is not None and held.kind == V.LIST and (held.fields is not None or arrays):
                # `params["radec"] = ...`: that entry now holds what is assigned
                key = string_value(target.slice[0].slice.value) if len(target.slice) == 1 and \
                    type(target.slice[0].slice) is cst.Index else None
                self._forget_aliases(target.value.value, held, f"[{key}]" if key is not None else None)
                kept = tuple((n, fv) for n, fv in held.fields or () if key is not None and n != f"[{key}]")
                if key is not None and not v.traced and v.kind in (V.NPARRAY, V.ARRAY):
                    kept += ((f"[{key}]", Value(kind=v.kind)),)
                # a dict of JAX arrays stays one only while what is stored is one too
                item = held.item if not arrays or (v.kind == V.ARRAY and not v.traced) else None
                self.env[target.value.value] = replace_value(held, fields=kept or None, item=item)
            return
        if isinstance(target, cst.StarredElement):
            self._bind(target.value, Value(traced=v.traced, deps=v.deps))


_REPLACERS = frozenset({"_replace", "replace"})


def replaced_record(call: cst.CSTNode, qualname) -> Optional[tuple[str, dict[str, cst.BaseExpression]]]:
    """``(source, {field: new value})`` when ``call`` copies a record with some fields
    replaced: ``s._replace(key=k)`` (a NamedTuple), ``s.replace(key=k)`` (a flax
    struct / chex dataclass), ``dataclasses.replace(s, key=k)``; None otherwise."""
    if not isinstance(call, cst.Call):
        return None
    f = call.func
    kw = {a.keyword.value: a.value for a in call.args if a.keyword is not None}
    if any(a.star for a in call.args):
        return None
    if isinstance(f, cst.Attribute) and f.attr.value in _REPLACERS:
        if any(a.keyword is None for a in call.args):
            return None
        src = dotted_name(f.value)
        return (src, kw) if src is not None else None
    if qualname(f) == "dataclasses.replace":
        pos = [a for a in call.args if a.keyword is None]
        src = dotted_name(pos[0].value) if len(pos) == 1 else None
        return (src, kw) if src is not None else None
    if kw and type(f) in (cst.Name, cst.Attribute):
        # `State(key=key, x=x)`: a record built with a key (a class, by its name), its
        # field holds that key; nothing is kept from what the name held before
        last = f.value if type(f) is cst.Name else f.attr.value
        if last[:1].isupper() and not last.isupper():
            return ("", kw)
    return None


def replace_value(v: Value, **kw) -> Value:
    return replace(v, **kw)
