"""The lattice of kinds: what the model knows a value to be.

A ``Value`` (``model/values.py``) carries a kind and a ``traced`` flag; together they
name one element of a flat lattice::

                                  UNKNOWN                      (top: anything)
      /        /       |        |        |       |       \\        \\
  STATIC   NPARRAY   ARRAY    TRACER    KEY     KEYS   ITERATOR  LIST, TUPLE,
  (Python  (host     (a con-  (ARRAY,   (one    (split  (a gen-   FUNCTION, MODULE...
   value)   NumPy)    crete    traced)   PRNG    keys)   erator)
                      JAX                key)
                      array)
      \\        \\       |        |        |       |       /        /
                                  BOTTOM                       (nothing seen yet)

Two different kinds join to UNKNOWN, and UNKNOWN never reports: a rule fires only on
a kind the model has shown.  ``BOTTOM`` is where a parameter starts before any call
site is seen.

Kinds flow three ways this module serves:

* **call sites give parameters their kinds**, joined over every call of the function
  (``model/calls.py`` records the calls of this file, other modules send theirs as
  facts: ``jaxlint/project/facts.py``); a parameter takes the joined kind only where
  every use of the function's name is a call that was seen (``param_value``);
* **returns carry kinds**: a helper whose every ``return`` builds a key, a JAX array,
  a host NumPy array (``return_kind``), or a generator, gives that kind to its calls,
  in this file and in the modules that import it;
* **attributes carry kinds** (``model/attributes.py``).

Across modules a kind travels as its name (``fact_name`` / ``value_of``); only the
kinds a rule can act on travel (``CARRIED``), anything else is UNKNOWN there.  A
function compiled by jit travels too (``jitted``: ``bench(jax.jit(f), x)`` gives
``bench``'s parameter a FUNCTION whose calls dispatch asynchronously).
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Callable, Iterable, Mapping, Optional

import libcst as cst

from jaxlint.model import apis
from jaxlint.model import values as V
from jaxlint.model.values import Value
from jaxlint.model.walk import dotted_name, int_value, walk_tree

BOTTOM = "bottom"
TRACER = "tracer"  # the fact name of ARRAY with traced=True
# a function compiled by jit (``jax.jit(f)``, ``eqx.filter_jit(f)``...): its calls return
# before the work is done (asynchronous dispatch); FUNCTION with that transform
JITTED = "jitted"
_COMPILING = frozenset({"jax.jit", "jax.pjit", "jax.experimental.pjit.pjit", "jax.pmap",
                        "equinox.filter_jit", "flax.nnx.jit"})

# an array namespace passed as a value (``convert(x, xnp=jnp)``): ``ns:jax.numpy``; and
# what a call that passes nothing for a parameter with a default gives it (``default``):
# together they say which module ``def convert(x, xnp=np)`` calls ``xnp.stack`` on
NS = "ns:"
NAMESPACES = frozenset({"numpy", "jax.numpy"})
DEFAULT = "default"
# an initializer that draws nothing from the key it is given, passed as a value
# (``dense(key, w_init=lecun_normal(), b_init=zeros)``): ``nodraw:jax.nn.initializers.zeros``
NODRAW = "nodraw:"

# the kinds that cross a call (to a parameter, from a return) and between modules
# a dict display holding host NumPy arrays or concrete JAX arrays under literal keys:
# ``dict:radec=nparray``, ``dict:obs=array``; ``*=array`` when every value is a JAX array
# (``dict:*=array,b=array,w=array``: ``params[k]`` is one, whichever key)
# (this file's calls only: not a cross-module fact)
DICT = "dict:"
# ARRAYS: a list or tuple of concrete JAX arrays (``[jnp.ones(3), jnp.zeros(2)]``): its
# elements are immutable, which a helper iterating it cannot otherwise tell
# PYLIST: a Python list (a list display, not a dict): a mutable container of the caller's
# that the callee's closures may write into (``foo([0.])`` ... ``tot[0] += x``)
PYLIST = "pylist"
# the kinds of concrete values that cannot be hashed (a jit's static argument raises)
UNHASHABLE = frozenset({V.ARRAY, V.NPARRAY, V.KEY, V.KEYS})
CARRIED = frozenset({V.ARRAY, V.NPARRAY, V.KEY, V.KEYS, V.ITERATOR, JITTED, V.ARRAYS, PYLIST})

# jax.random functions that return one key / several keys
_KEY_MAKERS = frozenset({"PRNGKey", "key", "fold_in", "clone", "wrap_key_data"})
_KEYS_MAKERS = frozenset({"split"})


def join(a: str, b: str) -> str:
    """The least upper bound of two kinds."""
    if a == BOTTOM:
        return b
    if b == BOTTOM or a == b:
        return a
    if a.startswith(DICT) and b.startswith(DICT):
        # two dicts of arrays: the entries both hold (`*=array`: every value a JAX array)
        common = set(a[len(DICT):].split(",")) & set(b[len(DICT):].split(","))
        return DICT + ",".join(sorted(common)) if common else V.UNKNOWN
    return V.UNKNOWN


def join_all(kinds: Iterable[str]) -> str:
    out = BOTTOM
    for k in kinds:
        out = join(out, k)
        if out == V.UNKNOWN:
            break
    return out


def fact_name(v: Value) -> str:
    """The name of ``v``'s kind as a call-site fact: a carried kind, ``tracer``, or
    ``unknown`` for everything else."""
    if v.traced:
        return TRACER if v.kind == V.ARRAY else V.UNKNOWN
    if v.kind == V.FUNCTION:
        if v.transform is None and v.unit is None and v.qualname in NAMESPACES:
            return NS + v.qualname  # `xnp=jnp`
        if v.transform is None and v.unit is None and apis.initializer_draws_nothing(v.qualname):
            return NODRAW + v.qualname  # `b_init=zeros`
        # a jit wrap (`jax.jit(f)`), or a def whose outermost decorator compiles it
        # (`@jax.jit def f`: its name holds the jitted function)
        t = v.transform if v.transform is not None else (v.unit.outer_transform if v.unit is not None else None)
        return JITTED if t is not None and apis.canonical(t) in _COMPILING else V.UNKNOWN
    if v.instance is not None and v.kind == V.UNKNOWN:
        return OBJ + v.instance  # an instance of a class of the project (model/instances.py)
    if v.kind == V.LIST and v.fields is not None:
        held = sorted(f"{n[1:-1]}={fv.kind}" for n, fv in v.fields
                      if n[:1] == "[" and n != "[*]" and fv.kind in (V.NPARRAY, V.ARRAY) and not fv.traced)
        if held and v.item is not None and v.item.kind == V.ARRAY and not v.item.traced:
            held.insert(0, "*=" + V.ARRAY)  # every value a concrete JAX array (`params[k]` is one)
        if held and all("," not in h for h in held):
            return DICT + ",".join(held)  # a dict holding arrays under literal keys
    if v.kind in (V.TUPLE, V.LIST, V.ARRAYS) and v.elements and v.fields is None and all(
            e.kind == V.ARRAY and not e.traced for e in v.elements):
        return V.ARRAYS  # a list/tuple display of concrete JAX arrays
    if v.kind == V.ARRAYS:
        return V.ARRAYS if v.item is not None and v.item.kind == V.ARRAY and not v.item.traced else V.UNKNOWN
    if v.kind in (V.TUPLE, V.LIST) and v.elements and len(v.elements) <= 8 and all(
            e.instance is not None and e.kind == V.UNKNOWN and "|" not in e.instance for e in v.elements):
        # a tuple or list display of instances of the project's classes (`(agent1, agent2)`)
        return OBJS + "|".join(e.instance for e in v.elements)  # type: ignore[misc]
    if v.kind == V.LIST and v.pytype is None and v.fields is None and v.elements is not None:
        return PYLIST  # a list display (`[0.0]`, `[]`)
    return v.kind if v.kind in CARRIED and v.kind != PYLIST else V.UNKNOWN


def carried(kind: str) -> bool:
    """Does a parameter given ``kind`` by every call take it (model/walker.py)?"""
    return kind in CARRIED or kind.startswith((DICT, NODRAW))


def value_of(kind: str, traced: bool = False, deps: frozenset = frozenset()) -> Value:
    """The value a carried kind stands for (``traced``: an ARRAY computed in traced code)."""
    if kind == V.ARRAY:
        return Value(kind=V.ARRAY, traced=traced, deps=deps)
    if kind in (V.NPARRAY, V.KEYS, V.ITERATOR):
        return Value(kind=kind)
    if kind == V.KEY:
        return Value(kind=V.KEY)
    if kind == JITTED:
        return Value(kind=V.FUNCTION, transform="jax.jit")
    if kind == V.ARRAYS:
        return Value(kind=V.ARRAYS, item=Value(kind=V.ARRAY))
    if kind == PYLIST:
        return Value(kind=V.LIST, pytype="list")  # a Python list, its items unknown: the callee may change them
    if kind.startswith(NODRAW):
        return Value(kind=V.FUNCTION, qualname=kind[len(NODRAW):])
    if kind.startswith(DICT):
        entries = [h.split("=", 1) for h in kind[len(DICT):].split(",")]
        item = Value(kind=V.ARRAY) if any(n == "*" for n, _ in entries) else None
        return Value(kind=V.LIST, fields=tuple((f"[{n}]", Value(kind=k)) for n, k in entries if n != "*") or None,
                     item=item, pytype="dict" if item is not None else None)
    return V.UNKNOWN_VALUE


# ----------------------------------------------------------------- call sites
def call_kinds(params: list, call: cst.Call, value: Callable[[cst.CSTNode], Value], n_bound: int = 0,
               name: Callable[[Value], str] = None) -> dict[str, str]:
    """param name -> the kind ``call`` passes for it (``default`` where it passes
    nothing to a parameter with a default, ``unknown`` where ``*args``/``**kwargs``
    hide which); ``name``: how a value is named (``fact_name``, or ``python_name``)."""
    fact = fact_name if name is None else name
    out = {p.name: V.UNKNOWN for p in params}
    if any(a.star for a in call.args):
        return out
    _defaulted(params[n_bound:], out)
    positional = [p for p in params if p.kind in ("pos", "posonly")][n_bound:]
    i = 0
    for a in call.args:
        if a.keyword is None:
            if i < len(positional):
                out[positional[i].name] = fact(value(a.value))
            i += 1
        elif a.keyword.value in out:
            out[a.keyword.value] = fact(value(a.value))
    return out


# a Python value (a literal, a shape, a tuple of them) passed by a call in traced code:
# no tracer (``Block()(x, "relu", (2, 3))``); this file's traced calls only, never a fact
PYVALUE = "python"


def python_value(v: Value, depth: int = 0) -> bool:
    """Is ``v`` a Python value no trace makes a tracer: a constant or a tuple/list
    display of them?"""
    if v.traced or depth > 4:
        return False
    if v.kind == V.STATIC:
        return True
    return v.kind == V.TUPLE and v.elements is not None and all(python_value(e, depth + 1) for e in v.elements)


def python_name(v: Value) -> str:
    """``fact_name``, or ``PYVALUE`` for a Python value."""
    return PYVALUE if python_value(v) else fact_name(v)


def _defaulted(params: list, out: dict[str, str]) -> None:
    for p in params:
        if getattr(p, "default", None) is not None and p.kind in ("pos", "posonly", "kwonly"):
            out[p.name] = DEFAULT


def fact_kinds(params: list, pos: object, kw: object) -> dict[str, str]:
    """param name -> kind, from a call-site fact of another module (``pos``: the
    kinds of its positional arguments, ``kw``: keyword -> kind; None where the call
    spreads ``*args``/``**kwargs``)."""
    out = {p.name: V.UNKNOWN for p in params}
    if not isinstance(pos, list) or not isinstance(kw, dict):
        return out
    _defaulted(params, out)
    positional = [p for p in params if p.kind in ("pos", "posonly")]
    for p, k in zip(positional, pos):
        out[p.name] = k if _fact_name(k) else V.UNKNOWN
    for name, k in kw.items():
        if name in out:
            out[name] = k if _fact_name(k) else V.UNKNOWN
    return out


_FACT_NAMES = CARRIED | {TRACER}
# an instance of a class, named as ``project/facts.py`` resolved it (``obj:@module:qualname``)
OBJ = "obj:"
# a tuple or list display of such instances, one ref per element (``objs:@m:A|@m:B``)
OBJS = "objs:"


def _fact_name(k: object) -> bool:
    return k in _FACT_NAMES or (isinstance(k, str) and (
        k.startswith((OBJ + "@", OBJS + "@")) or (k.startswith(NS) and k[len(NS):] in NAMESPACES)
        or (k.startswith(NODRAW) and apis.initializer_draws_nothing(k[len(NODRAW):]))))


def namespace_param(default_ns: Optional[str], kind: Optional[str]) -> Optional[str]:
    """The array namespace a parameter stands for (``def f(x, xnp=np)``): the default's
    (``default_ns``) where every call passes nothing or that namespace, the one every
    call passes; None where the calls differ (``xnp=jnp`` at one of them) or are not
    known (``kind``: the join over the calls, ``model/calls.py``)."""
    if kind == DEFAULT:
        return default_ns
    if kind is not None and kind.startswith(NS) and kind[len(NS):] in NAMESPACES:
        return kind[len(NS):]
    return None


def join_into(acc: dict[str, str], kinds: Mapping[str, str]) -> None:
    for name, k in kinds.items():
        acc[name] = join(acc.get(name, BOTTOM), k)


def attribute_uses(text: str, name: str) -> int:
    """How many times ``name`` is written in ``text`` as a whole name, an attribute
    (``self.name``, ``obj.name``) too: a method's definition and every use of it."""
    return len(re.findall(rf"(?<![\w]){re.escape(name)}(?!\w)", text))


def exported_mentions(text: str, name: str) -> int:
    """How many times ``name`` is written as a string in the module's ``__all__``
    display (``__all__ = ["interp"]``): an export, not a use (the importing modules
    report their own uses)."""
    i = text.find("__all__")
    if i < 0:
        return 0
    out = 0
    while i >= 0:
        j = i + len("__all__")
        rest = text[j:j + 8].lstrip()
        if rest.startswith(("=", "+=")):
            close = min((k for k in (text.find("]", j), text.find(")", j)) if k >= 0), default=-1)
            if close >= 0:
                region = text[j:close]
                out += region.count(f'"{name}"') + region.count(f"'{name}'")
        i = text.find("__all__", j)
    return out


def prose_mentions(text: str, name: str) -> int:
    """How many times ``name`` (a plain name, no dot) is written as a whole word in a
    comment or inside a one-line string literal that is more than the name itself: prose
    (``print("loss equals row 3:", ...)``, ``# the loss``), not a use of the function.
    A string that is exactly the name (``getattr(mod, "loss")``, a registry key) still
    counts as a use, and so does a hit inside an f-string (its braces hold code), a
    triple-quoted string, or a line a multi-line string continues (not told apart
    from code here).  Reads only the line of each hit, up to the hit (and a string's
    end after it), so callers may ask whenever the cheap count says the name is
    written more often than it is called."""
    if "." in name or not name:
        return 0
    out = 0
    n = len(name)
    end = len(text)
    i = text.find(name)
    while i >= 0:
        j = i + n
        before = text[i - 1] if i else " "
        after = text[j] if j < end else " "
        if not (before.isalnum() or before == "_" or before == ".") and not (after.isalnum() or after == "_"):
            out += _in_prose(text, i, j, name)
        i = text.find(name, j)
    return out


def _in_prose(text: str, i: int, j: int, name: str) -> int:
    """1 when the hit ``text[i:j]`` is in a comment, or in a one-line plain string whose
    content is more than ``name``; 0 otherwise (code, an exact string, an f-string, a
    triple-quoted string or anything not read for sure)."""
    start = text.rfind("\n", 0, i) + 1
    quote = None
    opened = -1
    k = start
    while k < i:
        c = text[k]
        if quote is None:
            if c == "#":
                return 1
            if c in "\"'":
                if text[k:k + 3] == c * 3:
                    return 0  # a triple-quoted string: not read here
                quote, opened = c, k
        elif c == "\\":
            k += 1
        elif c == quote:
            quote = None
        k += 1
    if quote is None:
        return 0
    p = opened
    while p > start and text[p - 1].isalpha():
        p -= 1
    if "f" in text[p:opened].lower():
        return 0  # `f"{loss(x)}"`: code inside
    close = j
    eol = text.find("\n", j)
    eol = len(text) if eol < 0 else eol
    while close < eol and text[close] != quote:
        close += 2 if text[close] == "\\" else 1
    if close >= eol:
        return 0  # not closed on this line
    return 0 if text[opened + 1:close].strip() == name else 1


def uses_of(text: str, name: str) -> tuple[int, int]:
    """How many times ``name`` (``f`` or ``mod.f``) is written in ``text`` as a whole
    name (not an attribute of something else): its definition or import, its calls,
    any other use (passed as a value, stored, named in a string...); as (uses, of
    them the ones followed by an attribute, ``name.x``).  A substring search with a
    look at the characters around each hit (a regex with a look-behind would try
    every position)."""
    uses = attrs = 0
    n = len(name)
    end = len(text)
    i = text.find(name)
    while i >= 0:
        j = i + n
        before = text[i - 1] if i else " "
        after = text[j] if j < end else " "
        if not (before.isalnum() or before == "_" or before == ".") and not (after.isalnum() or after == "_"):
            uses += 1
            attrs += after == "."
        i = text.find(name, j)
    return uses, attrs


# ----------------------------------------------------------------- returns
def return_kind(
    unit,
    qualname: Callable[[cst.CSTNode], Optional[str]],
    local_values: Callable[[object], Mapping[str, list]],
) -> str:
    """The kind every ``return`` of ``unit`` (a function) hands back, whatever it is
    given: ``iterator`` for a generator; ``key``/``keys`` when every return builds
    PRNG keys (``jax.random.PRNGKey``/``split``...); ``array`` when every return is
    a ``jax.numpy``/``lax``/``jax.random`` computation (or arithmetic on one);
    ``nparray`` for NumPy constructors; ``unknown`` otherwise (a parameter passed
    through, a tuple, a shape, a bare ``return``...)."""
    if type(unit.node) is not cst.FunctionDef or unit.node.decorators:
        return V.UNKNOWN  # a decorator may return anything in its place
    if unit.is_generator:
        return V.ITERATOR
    if not unit.returns or any(r is None for r in unit.returns):
        return V.UNKNOWN
    params = {p.name for p in unit.params}
    memo: dict[str, str] = {}

    def kind(e: cst.CSTNode, depth: int, own: Optional[str] = None) -> str:
        # ``own``: the name whose bindings are being read; in them the name itself
        # (``f_k = f_k - f_k[0]``) is what its other bindings make it (BOTTOM here)
        if depth > 6:
            return V.UNKNOWN
        t = type(e)
        if t is cst.Name:
            name = e.value  # type: ignore[attr-defined]
            if name == own:
                return BOTTOM
            if name in params and not _rebound_first(unit.node, name):
                return V.UNKNOWN  # what the caller passes (unless rebound before any return)
            if name in memo:
                return memo[name]
            memo[name] = V.UNKNOWN  # a cycle through another name: unknown
            simple = unit.bindings.get(name)  # its `name = value` statements (pass 1)
            if not simple or join_all(kind(v, depth + 1, name) for _, v in simple) not in CARRIED:
                return V.UNKNOWN
            values = local_values(unit).get(name)  # every binding (a loop target, `+=`...)
            if not values or any(v is None for v in values):
                return V.UNKNOWN
            memo[name] = join_all(kind(v, depth + 1, name) for v in values)
            return memo[name]
        if t is cst.Call:
            return call_kind(qualname(e.func))  # type: ignore[attr-defined]
        if t is cst.BinaryOperation:
            left = kind(e.left, depth + 1, own)  # type: ignore[attr-defined]
            right = kind(e.right, depth + 1, own)  # type: ignore[attr-defined]
            if V.NPARRAY in (left, right):
                return V.UNKNOWN
            if V.ARRAY in (left, right):
                return V.ARRAY  # jnp arithmetic with anything else is a JAX array
            if BOTTOM in (left, right):
                return BOTTOM  # `x + 1` of the name being read: what `x` is
            return V.UNKNOWN
        if t is cst.Subscript or (t is cst.UnaryOperation and type(e.operator) in (  # type: ignore[attr-defined]
                cst.Minus, cst.Plus, cst.BitInvert)):
            # `f_k[0]`, `-logsumexp(...)`: an item or the negation of a JAX array is one
            inner = kind(e.value if t is cst.Subscript else e.expression, depth + 1, own)  # type: ignore[attr-defined]
            return inner if inner in (V.ARRAY, BOTTOM) else V.UNKNOWN
        return V.UNKNOWN

    return join_all(kind(r, 0) for r in unit.returns)


def _rebound_first(fn: cst.CSTNode, name: str) -> bool:
    """Does the function ``fn`` rebind its parameter ``name`` by a plain assignment at
    the top level of its body (``f_k = jnp.asarray(f_k)``) before any ``return``: then
    no return hands back what the caller passed."""
    for stmt in getattr(getattr(fn, "body", None), "body", ()):
        if type(stmt) is cst.SimpleStatementLine:
            for small in stmt.body:
                if type(small) is cst.Return:
                    return False
                if type(small) is cst.Assign and any(
                        type(t.target) is cst.Name and t.target.value == name for t in small.targets):
                    return True
            continue
        if any(type(n) is cst.Return for n in walk_tree(stmt)):
            return False
    return False


# a helper that hands back what it was given: ``pass:<param>`` (``return key``), or
# ``pass<n>:<i>=<param>,...`` (``return x, key``: element ``i`` of an ``n``-tuple is the
# parameter): its call's value (or that element) is the caller's argument itself, the same
# PRNG key, the same list
PASS = "pass"


def passthrough(unit) -> Optional[str]:
    """Which of ``unit``'s parameters every ``return`` hands back unchanged (the
    parameter's name, not rebound in the body: a key given back after a draw, an
    identity helper), as a ``pass`` kind; None when a return gives anything else."""
    node = unit.node
    if type(node) is not cst.FunctionDef or node.decorators or unit.is_generator:
        return None
    if not unit.returns or any(r is None for r in unit.returns):
        return None
    positional = [p.name for p in unit.params if p.kind in ("pos", "posonly")]
    params = {p.name for p in unit.params if p.kind in ("pos", "posonly", "kwonly")}
    free = params - unit.assigned - unit.global_names - unit.nonlocal_names

    def param(e) -> Optional[str]:
        if type(e) is not cst.Name or e.value not in free:
            return None
        return f"{e.value}@{positional.index(e.value) if e.value in positional else -1}"

    shapes = set()
    for r in unit.returns:
        if type(r) is cst.Tuple:
            els = r.elements
            if any(isinstance(el, cst.StarredElement) for el in els):
                return None
            held = tuple((i, param(el.value)) for i, el in enumerate(els) if param(el.value) is not None)
            if not held:
                return None
            shapes.add((len(els), held))
        else:
            p = param(r)
            if p is None:
                return None
            shapes.add((0, ((0, p),)))
    if len(shapes) != 1:
        return None
    n, held = shapes.pop()
    if n == 0:
        return f"{PASS}:{held[0][1]}"
    return f"{PASS}{n}:" + ",".join(f"{i}={p}" for i, p in held)


def passed_back(kind: str, call: cst.Call, value: Callable[[cst.CSTNode], Value], n_bound: int = 0) -> Optional[Value]:
    """The value of ``call`` of a helper whose returns are ``kind`` (``passthrough``):
    the argument itself, or a tuple holding it; None when the call's arguments cannot
    be matched to the parameter (``*args``, a default).  ``n_bound``: leading
    parameters the call does not pass (``self`` of a method called on an instance)."""
    if not kind.startswith(PASS) or any(a.star for a in call.args):
        return None
    head, _, rest = kind.partition(":")
    try:
        held = [(0, rest)] if head == PASS else [(int(i), p) for i, p in (x.split("=", 1) for x in rest.split(","))]
        n = 0 if head == PASS else int(head[len(PASS):])
    except ValueError:
        return None
    pos_args = [a for a in call.args if a.keyword is None]

    def arg_for(p: str) -> Optional[cst.BaseExpression]:
        name, _, at = p.partition("@")
        for a in call.args:
            if a.keyword is not None and a.keyword.value == name:
                return a.value
        i = int(at) - n_bound if at.lstrip("-").isdigit() and int(at) >= 0 else -1
        return pos_args[i].value if 0 <= i < len(pos_args) else None

    if n == 0:
        a = arg_for(rest)
        return value(a) if a is not None else None
    elements = [V.UNKNOWN_VALUE] * n
    for i, p in held:
        a = arg_for(p)
        if a is None or i >= n:
            return None
        elements[i] = value(a)
    return Value(kind=V.TUPLE, elements=tuple(elements))


# a helper whose every return is a display of one kind: ``display:list`` (``return [n,
# n]``), ``display:dict``, ``display:set``: unhashable, whatever it is given (a static
# argument built by a helper of another module, JAX207)
DISPLAY = "display:"


def display_return(unit) -> Optional[str]:
    """``display:<list|dict|set>`` when every ``return`` of ``unit`` (a plain function
    that cannot fall off its end) is a display or comprehension of that kind."""
    node = unit.node
    if type(node) is not cst.FunctionDef or node.decorators or unit.is_generator or not unit.returns:
        return None
    body = node.body.body
    last = body[-1] if body else None
    if isinstance(last, cst.SimpleStatementLine):
        last = last.body[-1]
    if not isinstance(last, cst.Return):
        return None
    found = set()
    for r in unit.returns:
        if isinstance(r, (cst.List, cst.ListComp)):
            found.add("list")
        elif isinstance(r, (cst.Dict, cst.DictComp)):
            found.add("dict")
        elif isinstance(r, (cst.Set, cst.SetComp)):
            found.add("set")
        else:
            return None
    return DISPLAY + found.pop() if len(found) == 1 else None


_DISPLAY_KINDS = {cst.List: "list", cst.ListComp: "list", cst.Dict: "dict", cst.DictComp: "dict",
                  cst.Set: "set", cst.SetComp: "set"}


def display_constants(module: cst.Module, rebound: Optional[Callable[[str], bool]] = None) -> dict[str, dict]:
    """The module-level names a module binds once, at the top level of its body, to a
    list/dict/set display or comprehension (``PARAMS = {"dt": 0.05}``, ``LAYERS: list
    = [64, 64]``), that no other statement of the module binds and no function rebinds
    through ``global``: ``{name: {"display": kind}}`` (``values`` facts: an importer
    passing one as a static argument passes something unhashable, JAX207).  A name
    mutated in place (``PARAMS["dt"] = 0.1``) keeps its kind.  ``rebound``: whether a
    function rebinds a name through ``global`` (the project index knows); without it
    the module is walked for ``global`` statements."""
    from jaxlint.model.scopes import writes

    found: dict[str, str] = {}
    for stmt in module.body:
        if type(stmt) is not cst.SimpleStatementLine:
            continue
        for small in stmt.body:
            t = type(small)
            if t is cst.Assign and len(small.targets) == 1 and type(small.targets[0].target) is cst.Name:
                name, value = small.targets[0].target.value, small.value
            elif t is cst.AnnAssign and type(small.target) is cst.Name and small.value is not None:
                name, value = small.target.value, small.value
            else:
                continue
            kind = _DISPLAY_KINDS.get(type(value))
            if kind is not None and not name.startswith("__"):
                found[name] = kind
    if not found:
        return {}
    out = {name: kind for name, kind in found.items() if len(writes(module, name)) == 1}
    if out and rebound is not None:
        out = {name: kind for name, kind in out.items() if not rebound(name)}
    elif out:
        for n in walk_tree(module):
            if type(n) is cst.Global:
                for g in n.names:
                    out.pop(g.name.value, None)
    return {name: {"display": kind} for name, kind in sorted(out.items())}


def call_kind(q: Optional[str]) -> str:
    """The kind of what a call of the function ``q`` (a qualified name) returns,
    whatever its arguments: ``key``/``keys`` for ``jax.random`` key makers, ``array``
    for ``jax.numpy``/``lax``/``jax.random``/``jax.nn``... computations of one array,
    ``nparray`` for NumPy array constructors, else ``unknown`` (shapes and dtypes,
    lists of arrays, the pytrees of ``lax.scan``/``cond`` and of collectives...)."""
    if q is None:
        return V.UNKNOWN
    if q.startswith("jax.random."):
        short = q.rsplit(".", 1)[1]
        if short in _KEY_MAKERS:
            return V.KEY
        if short in _KEYS_MAKERS:
            return V.KEYS
    if q in apis.STATIC_RESULT_FUNCS or q in apis.ARRAY_SEQUENCE_FUNCS \
            or q in apis.ARRAY_SEQUENCE_IF_MANY or q in apis.ARRAY_SEQUENCE_IF_ONE or q in apis.COLLECTIVES:
        return V.UNKNOWN
    if q.rsplit(".", 1)[-1].startswith("_") or apis.transform_for(q) is not None:
        return V.UNKNOWN  # private helpers; lax.scan/cond/... return their body's pytree
    if q.startswith(apis.ARRAY_MODULES) or q.startswith("jax.numpy"):
        return V.ARRAY
    if q.startswith("numpy.") and q.rsplit(".", 1)[1] in _NUMPY_BUILDERS:
        return V.NPARRAY
    return V.UNKNOWN


# NumPy functions that build a new host array (not a scalar, a shape or a list)
_NUMPY_BUILDERS = frozenset(
    "zeros ones full empty zeros_like ones_like full_like empty_like arange array asarray "
    "eye identity linspace logspace geomspace indices concatenate stack hstack vstack "
    "tile repeat meshgrid".split()
) - {"meshgrid"}


# ----------------------------------------------------------------- dataclass fields
_DATACLASS_DECORATORS = frozenset({"dataclasses.dataclass", "flax.struct.dataclass", "chex.dataclass"})


def dataclass_fields(node: cst.ClassDef, qualname: Callable[[cst.CSTNode], Optional[str]]) -> Optional[list[str]]:
    """The fields of a dataclass (``@dataclasses.dataclass``, ``@flax.struct.dataclass``,
    ``@chex.dataclass``) without bases, in the order ``__init__`` takes them; None for
    any other class."""
    if node.bases or node.keywords:
        return None
    if not any(qualname(d.decorator.func if isinstance(d.decorator, cst.Call) else d.decorator)
               in _DATACLASS_DECORATORS for d in node.decorators):
        return None
    return _annotated_fields(node, qualname)


def _annotated_fields(node: cst.ClassDef, qualname: Optional[Callable[[cst.CSTNode], Optional[str]]]) -> list[str]:
    """The names a class body annotates (``w: jax.Array``), in order; with ``qualname``,
    not those annotated ``ClassVar`` (a dataclass's class attributes)."""
    out = []
    for stmt in node.body.body:
        if isinstance(stmt, cst.SimpleStatementLine):
            for small in stmt.body:
                if isinstance(small, cst.AnnAssign) and isinstance(small.target, cst.Name):
                    if qualname is not None:
                        ann = small.annotation.annotation
                        head = ann.value if isinstance(ann, cst.Subscript) else ann
                        if (qualname(head) or "").endswith("ClassVar"):
                            continue
                    out.append(small.target.value)
    return out


_NAMEDTUPLE_BASES = frozenset({"typing.NamedTuple", "typing_extensions.NamedTuple"})


def namedtuple_fields(node: cst.ClassDef, qualname: Callable[[cst.CSTNode], Optional[str]]) -> Optional[list[str]]:
    """The fields of a ``class State(NamedTuple)`` (its one base), in the order its
    constructor takes them; None for any other class.  An instance's fields cannot be
    assigned (``s.w = ...`` raises AttributeError): what the constructor gave stays."""
    if len(node.bases) != 1 or node.keywords or node.decorators \
            or (qualname(node.bases[0].value) or "") not in _NAMEDTUPLE_BASES:
        return None
    return _annotated_fields(node, None)


def instance_fields(fields: list[str], call: cst.Call, value: Callable[[cst.CSTNode], Value],
                    defaults: Optional[dict[str, int]] = None) -> Optional[tuple]:
    """(field, Value) for the fields a constructor call gives a carried kind (an array's
    shape kept) or a known integer, and the integer defaults of the fields it leaves."""
    if any(a.star for a in call.args):
        return None
    out = []
    given: set = set()
    i = 0
    for a in call.args:
        if a.keyword is None:
            name = fields[i] if i < len(fields) else None
            i += 1
        else:
            name = a.keyword.value
        if name is None or name not in fields:
            continue
        v = value(a.value)
        if not v.traced and v.kind in CARRIED:
            out.append((name, replace(value_of(v.kind), shape=v.shape) if v.shape is not None else value_of(v.kind)))
        elif not v.traced and v.kind == V.STATIC and type(v.const) is int:
            out.append((name, Value(kind=V.STATIC, const=v.const)))  # `Config(n_layers=12)`
        given.add(name)
    for name, n in (defaults or {}).items():
        if name not in given:
            out.append((name, Value(kind=V.STATIC, const=n)))  # `n_layers: int = 400` left at its default
    return tuple(out) or None


def dataclass_int_defaults(node: cst.ClassDef) -> dict[str, int]:
    """The fields of a dataclass whose default is an integer literal (``n_layers: int = 4``,
    ``= field(default=4)``)."""
    out = {}
    for stmt in node.body.body:
        if isinstance(stmt, cst.SimpleStatementLine):
            for small in stmt.body:
                if isinstance(small, cst.AnnAssign) and isinstance(small.target, cst.Name) and small.value is not None:
                    d = small.value
                    if isinstance(d, cst.Call) and dotted_name(d.func) in ("field", "dataclasses.field"):
                        kw = next((a.value for a in d.args if a.keyword is not None and a.keyword.value == "default"), None)
                        d = kw if kw is not None else d
                    n = int_value(d)
                    if n is not None:
                        out[small.target.value] = n
    return out



# a helper whose return changes with one of its parameters, one-to-one while the others
# stay (``def cosine(step, total=10): return 0.1 * (1 + math.cos(math.pi * step /
# total))``): ``counter:step@0`` (``counter:base@0,step@1`` for ``base * (step + 1)``).
# Given a loop counter there, each iteration gets another value (a static argument made
# so retraces every iteration: JAX504's schedules, here or in another module)
COUNTER = "counter:"
_MANY_VALUED = frozenset({"math.cos", "math.sin", "math.tan", "math.exp", "math.log", "math.sqrt", "math.tanh",
                          "math.log1p", "math.expm1", "math.log2", "math.log10", "math.atan", "float"})
# (not `int`: `int(step / 1000)` takes one value for a thousand steps)
_FEW_VALUED_OPS = (cst.Modulo, cst.FloorDivide, cst.BitAnd, cst.BitOr, cst.BitXor, cst.RightShift, cst.LeftShift)
_CONSTANT_ATTRS = frozenset({"math.pi", "math.e", "math.tau"})


def _varies(e: cst.CSTNode, param: str, invariant: frozenset, depth: int = 0) -> Optional[str]:
    """``vary`` when ``e`` is a one-to-one function of the name ``param`` (arithmetic with
    constants and ``invariant`` names, ``math.cos``/``exp``/``log``... of one), ``inv``
    when it reads only constants and ``invariant`` names, else None (unknown)."""
    t = type(e)
    if depth > 8:
        return None
    if t is cst.Name:
        return "vary" if e.value == param else ("inv" if e.value in invariant else None)
    if t in (cst.Integer, cst.Float):
        return "inv"
    if t is cst.Attribute:
        return "inv" if dotted_name(e) in _CONSTANT_ATTRS else None
    if t is cst.UnaryOperation and type(e.operator) is cst.Minus:
        return _varies(e.expression, param, invariant, depth + 1)
    if t is cst.BinaryOperation:
        if isinstance(e.operator, _FEW_VALUED_OPS):
            return None
        left = _varies(e.left, param, invariant, depth + 1)
        right = _varies(e.right, param, invariant, depth + 1)
        if left is None or right is None:
            return None
        if left == "vary" and right == "vary":
            return None  # (`step - step`, `step * step`: not shown one-to-one)
        return "vary" if "vary" in (left, right) else "inv"
    if t is cst.Call and len(e.args) == 1 and e.args[0].keyword is None and not e.args[0].star \
            and dotted_name(e.func) in _MANY_VALUED:
        return _varies(e.args[0].value, param, invariant, depth + 1)
    return None


def counter_return(node: cst.CSTNode) -> Optional[str]:
    """``counter:<param>@<position>,...`` when the plain function ``node`` is one
    ``return`` (after a docstring) of an expression that changes one-to-one with each
    of the parameters listed while the others stay, its other names being parameters
    or constants: a new value for each new value of such a parameter (``def cosine(step, total=10): return base * math.cos(
    math.pi * step / total)``).  Read from the def's text alone (a module that never
    names JAX tells it too)."""
    if type(node) is not cst.FunctionDef or node.decorators or node.asynchronous is not None:
        return None
    body = [s for s in node.body.body if not (
        type(s) is cst.SimpleStatementLine and len(s.body) == 1 and type(s.body[0]) is cst.Expr
        and type(s.body[0].value) in (cst.SimpleString, cst.ConcatenatedString))]
    if len(body) != 1 or type(body[0]) is not cst.SimpleStatementLine or len(body[0].body) != 1 \
            or type(body[0].body[0]) is not cst.Return or body[0].body[0].value is None:
        return None
    ps = node.params
    if isinstance(ps.star_arg, cst.Param) or ps.star_kwarg is not None:
        return None
    positional = [p.name.value for p in (*ps.posonly_params, *ps.params)]
    names = frozenset(positional) | frozenset(p.name.value for p in ps.kwonly_params)
    value = body[0].body[0].value
    varying = [f"{p}@{i}" for i, p in enumerate(positional) if _varies(value, p, names - {p}) == "vary"]
    return COUNTER + ",".join(varying) if varying else None


# a helper whose every return is a tuple display with a list/dict/set display (or a local
# bound once to one) at some positions: ``displays:2:0=dict`` for ``params = {...}; ...;
# return params, memory`` (what ``params, memory = init_strategy(...)`` unpacks: JAX207)
DISPLAYS = "displays:"


def display_elements(node: cst.CSTNode) -> Optional[str]:
    """``displays:<n>:<i>=<kind>,...`` when every ``return`` of the plain function
    ``node`` (which cannot fall off its end) is a tuple display of ``n`` elements whose
    element ``i`` is a list/dict/set display, or a local the function binds once, to
    such a display (a dict it fills in place stays a dict), on every return."""
    from jaxlint.model.scopes import writes

    if type(node) is not cst.FunctionDef or node.decorators or node.asynchronous is not None:
        return None
    body = node.body.body
    last = body[-1] if body else None
    if type(last) is cst.SimpleStatementLine:
        last = last.body[-1]
    if type(last) is not cst.Return:
        return None
    scopes = (cst.FunctionDef, cst.Lambda, cst.ClassDef)
    returns = [r for r in walk_tree(node.body, lambda n: type(n) in scopes) if type(r) is cst.Return]
    if any(type(r) in (cst.Yield, cst.Await) for r in walk_tree(node.body, lambda n: type(n) in scopes)):
        return None
    params = {p.name.value for p in (*node.params.posonly_params, *node.params.params, *node.params.kwonly_params)}

    def kind(e: cst.BaseExpression) -> Optional[str]:
        found = _DISPLAY_KINDS.get(type(e))
        if found is not None or type(e) is not cst.Name or e.value in params:
            return found
        bound = writes(node, e.value)
        if len(bound) != 1 or type(bound[0]) is not cst.Assign or len(bound[0].targets) != 1 \
                or type(bound[0].targets[0].target) is not cst.Name:
            return None
        return _DISPLAY_KINDS.get(type(bound[0].value))

    n = None
    known: Optional[dict[int, Optional[str]]] = None
    for r in returns:
        v = r.value
        if type(v) is not cst.Tuple or any(type(el) is cst.StarredElement for el in v.elements):
            return None
        if n is None:
            n = len(v.elements)
        elif n != len(v.elements):
            return None
        here = {i: kind(el.value) for i, el in enumerate(v.elements)}
        known = here if known is None else {i: k for i, k in known.items() if k is not None and here.get(i) == k}
    held = {i: k for i, k in (known or {}).items() if k is not None}
    if not held or n is None:
        return None
    return f"{DISPLAYS}{n}:" + ",".join(f"{i}={k}" for i, k in sorted(held.items()))


def called_return_fact(
    index,
    local: Callable[[str], Optional[Value]],
    value: Callable[[cst.CSTNode], Value],
    call: cst.Call,
    of_local: Optional[Callable[[cst.CSTNode], Optional[str]]] = None,
) -> Optional[str]:
    """The return fact of the function ``call`` calls: a helper of another module of the
    project, as written here (``cfg.make_schedule``, ``init_strategy``) and not shadowed
    by a local binding, gives its exported record (``index.imported_returns``: a
    ``display:``, ``displays:``, ``counter:`` or ``dispatched:`` string); a plain function
    of this file (no transformation applied, not a method) gives what ``of_local`` reads
    from its def (``counter_return``, ``display_elements``...).  None when unknown.  One
    lookup for the rules that read what a called helper hands back (JAX207's static
    values, JAX504's counters)."""
    written = dotted_name(call.func)
    if written is not None and written in index.imported_returns and local(written.split(".", 1)[0]) is None:
        return index.imported_returns[written]
    if of_local is None or type(call.func) is not cst.Name:
        return None
    v = value(call.func)
    if v.kind == V.FUNCTION and v.unit is not None and v.transform is None and v.unit.cls is None:
        return of_local(v.unit.node)
    return None
