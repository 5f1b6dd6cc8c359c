"""Code units (the module, each function and lambda) and what is known of them."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Optional, Union

import libcst as cst

from jaxlint.model import pytrees

UnitNode = Union[cst.Module, cst.FunctionDef, cst.Lambda]


MIXED = object()  # Unit.passed_consts: calls give a parameter different or unknown values


def same_const(a: tuple, b: tuple) -> bool:
    """The same constant (``True`` is not ``1``)."""
    return type(a[0]) is type(b[0]) and a[0] == b[0]


def literal_const(e: Optional[cst.BaseExpression]) -> Optional[tuple]:
    """``(value,)`` of a literal: ``True``/``False``/``None``, a number, a string; else None."""
    if e is None:
        return None
    t = type(e)
    if t is cst.Name:
        v = e.value  # type: ignore[attr-defined]
        return ({"True": True, "False": False, "None": None}[v],) if v in ("True", "False", "None") else None
    if t in (cst.Integer, cst.Float, cst.SimpleString):
        try:
            return (e.evaluated_value,)  # type: ignore[attr-defined]
        except Exception:  # noqa: BLE001 - an odd literal: unknown
            return None
    if t is cst.UnaryOperation and isinstance(e.operator, cst.Minus):  # type: ignore[attr-defined]
        inner = literal_const(e.expression)  # type: ignore[attr-defined]
        return (-inner[0],) if inner is not None and type(inner[0]) in (int, float) else None
    return None


@dataclass
class ParamInfo:
    name: str
    kind: str  # "pos" (positional or keyword), "posonly", "vararg", "kwonly", "kwarg"
    index: Optional[int]  # position among positional parameters
    default: Optional[cst.BaseExpression]
    annotation: Optional[str]  # qualified (or dotted) name of the annotation's head
    # the class the annotation names (``Optional[X]`` -> X), as ``model/pytrees.ref`` keeps it
    ann_class: Optional[str] = None
    # annotated as a JAX array and nothing else (`jax.Array`, `jnp.ndarray`, jaxtyping's
    # `Float[Array, "n"]`; not `chex.Array` or `ArrayLike`, which admit NumPy arrays):
    # the parameter is one even in a function no transformation traces
    jax_array: bool = False

    @property
    def has_literal_default(self) -> bool:
        d = self.default
        if d is None:
            return False
        if isinstance(d, cst.Name) and d.value in ("True", "False", "None"):
            return True
        return isinstance(
            d, (cst.Integer, cst.Float, cst.SimpleString, cst.ConcatenatedString, cst.Imaginary)
        ) or (isinstance(d, cst.UnaryOperation) and isinstance(d.expression, (cst.Integer, cst.Float)))


@dataclass
class ClassInfo:
    name: str
    node: cst.ClassDef
    bases: list[str]  # qualified names of the bases that resolved
    is_jax_module: bool  # flax / equinox / haiku module: methods run traced
    methods: dict[str, "Unit"] = field(default_factory=dict)
    # a flax NNX module: its methods run eagerly unless a transformation (nnx.jit) or
    # traced code calls them; only `__call__` (the model applied in a training step)
    # is taken as traced by default
    nnx: bool = False
    # a flax linen module: ``Cls(...).apply(variables, *args)`` runs its ``__call__``
    linen: bool = False
    # the bases defined in the same file (before it), in the order written
    parents: list["ClassInfo"] = field(default_factory=list)
    # the unit whose body defines it (the module, or a function for a local class)
    scope: Optional["Unit"] = None

    def method(self, name: str) -> Optional["Unit"]:
        """The method ``self.name`` runs for an instance of this class: its own, else
        the first found up its bases defined in this file (None: unknown)."""
        m = self.methods.get(name)
        if m is None:
            for p in self.parents:
                m = p.method(name)
                if m is not None:
                    break
        return m


# the reason given to the methods of flax/equinox/haiku module classes (model/index.py)
MODULE_METHOD = "a method of the module class "


@dataclass
class Unit:
    node: UnitNode
    name: str
    qualname: str
    parent: Optional["Unit"]
    cls: Optional[ClassInfo] = None  # set when the unit is a method
    params: list[ParamInfo] = field(default_factory=list)
    defs: dict[str, "Unit"] = field(default_factory=dict)  # nested defs by name
    # --- what the model decides ---------------------------------------------
    traced: bool = False  # the body runs while JAX traces it (jnp results are tracers)
    host: bool = False  # a host callback body: concrete values
    traced_params: set[str] = field(default_factory=set)  # parameters that receive tracers
    static_params: set[str] = field(default_factory=set)  # declared static
    reasons: list[str] = field(default_factory=list)  # e.g. "decorated with jax.jit"
    # names assigned anywhere in the body (locals), for closure reasoning
    assigned: set[str] = field(default_factory=set)
    global_names: set[str] = field(default_factory=set)
    nonlocal_names: set[str] = field(default_factory=set)
    closure_env: Optional[dict] = None  # the enclosing environment where it was defined
    # wrapped by jit/vmap/pmap...: Python scalars passed to it become arrays
    jit_root: bool = False
    # the qualified name of its outermost decorator when that is a JAX transformation
    # (``@jax.jit def f``: its name holds the jitted function, model/kinds.py)
    outer_transform: Optional[str] = None
    # parameters left untraced only because of a literal default (traced if passed)
    defaulted_params: set[str] = field(default_factory=set)
    # parameters a vmap/shard_map hands over unchanged (``in_axes`` None): they take
    # what the calls pass (a host NumPy array stays one)
    unbatched_params: set[str] = field(default_factory=set)
    # parameters that call sites in this file feed arrays or Python scalars
    array_params: set[str] = field(default_factory=set)
    # calls from traced code seen so far, and the parameters some of them leave None
    traced_calls: int = 0
    maybe_none: set[str] = field(default_factory=set)
    # (module, attribute) -> the file that sets it between two calls of this function
    # (another module of the project: facts ``attr_changes``)
    attr_changes: dict[tuple[str, str], str] = field(default_factory=dict)
    # parameters it hands to a transformation (``jax.jit(jax.grad(loss_fn))``): name ->
    # the transformation's qualified name; the functions its callers pass are traced
    transformed_params: dict[str, str] = field(default_factory=dict)
    # those it transforms on one path only, picked by a test of another parameter
    # (``f = jax.jit(fn) if jit else fn``): name -> the condition (model/dual_mode.py)
    transform_conditions: dict[str, list] = field(default_factory=dict)
    # another module of the project calls it in a loop or a comprehension (facts ``repeated``)
    repeated_elsewhere: bool = False
    # another module runs it again and again otherwise: from a function that runs so, by
    # two statements of one block, through an instance (``x.m`` with ``x = Cls(...)``)
    # (facts ``again``; model/repeats.repeated_units)
    runs_again: bool = False
    # how the transformation sites tracing this method take ``self``: "traced" (passed
    # as an argument, not static: a pytree the trace copies), "object" (bound, static)
    self_sites: set[str] = field(default_factory=set)
    passed_params: set[str] = field(default_factory=set)  # given by some traced caller
    # the one Python constant every traced call recorded so far gives a parameter
    # (``check=False`` passed, or a literal default left): name -> (value,), or MIXED
    # where calls differ or one passes something else; ``const_calls`` counts the calls
    # recorded, so a traced call whose constants nobody recorded leaves them unknown
    passed_consts: dict[str, object] = field(default_factory=dict)
    const_calls: int = 0
    # each recorded traced call: (its constants, as ``note_consts``; the parameters it
    # gives tracers, None where unknown): which calls take a branch on a parameter
    call_traces: list[tuple[dict, Optional[frozenset]]] = field(default_factory=list)
    # the pytree class (model/pytrees.PyClass) traced callers pass for a parameter;
    # None where two callers disagree or one passes a value of no known class
    param_classes: dict[str, object] = field(default_factory=dict)
    # a dataclass's `__post_init__`, an equinox Module's `__check_init__` run by a
    # constructor call in traced code: the fields (``self.a1``) that call gave tracers
    traced_fields: set[str] = field(default_factory=set)
    # a method or property of a pytree class run on a traced instance (`cosmo.k` with
    # `cosmo` traced, model/pytree_methods.py): the data leaves `self.<f>` that are tracers
    self_leaves: set[str] = field(default_factory=set)
    # keywords a traced caller gives tracers that land in its `**kwargs` (no parameter of
    # that name): `sho(S0=1.0, Q=q)` into `def sho(**kwargs)` -> {"Q"}
    traced_star_kw: set[str] = field(default_factory=set)
    # returns a function it defines (a nested def or a lambda): a new object per call
    returns_fresh_function: bool = False
    # every value it returns is a jitted function it makes anew (`@jax.jit def update` in its body)
    returns_fresh_jit: bool = False
    # the values of its own `return` statements (None for a bare `return`), in source order
    returns: list = field(default_factory=list)
    # ids of the returned expressions written inside `with jax.ensure_compile_time_eval():`
    eager_returns: set = field(default_factory=set)
    # parameters whose PRNG key the body hands to a jax.random sampler: param -> sampler
    consumes_keys: dict[str, str] = field(default_factory=dict)
    # names the body gives bare as a dimension of what it draws from a key (`normal(key, (m,
    # n))`, `normal(key, shape)`, `eqx.nn.Linear(m, n, key=key)`): a parameter among them sizes
    # the draw, and two calls with one key that differ only there draw the same bits
    draw_dims: set[str] = field(default_factory=set)
    # names of an enclosing function's keys (its parameters or locals) that the body of
    # this nested function draws from: name -> sampler (each call draws from that key)
    captured_keys: dict[str, str] = field(default_factory=dict)
    # the draws written in its own body (a jax.random consumer, a library call given a
    # key): id of the call -> (the name of the key it is given, the consumer's short name)
    key_draws: dict[int, tuple[str, str]] = field(default_factory=dict)
    # traced because of code in other files: (path, line, what happens there)
    origins: list[tuple[str, int, str]] = field(default_factory=list)
    # name -> [(statement sequence number, assigned expression or None for a def)]
    bindings: dict[str, list] = field(default_factory=dict)
    # name -> the iterables of the `for` loops (and comprehensions) whose target it is
    loop_iters: dict[str, list] = field(default_factory=dict)
    # name -> (iterable, position in the target or None) of each `for` loop (comprehension)
    # that binds it, a tuple target's names too (`for name, fn in (("f", f), ...)`)
    loop_parts: dict[str, list] = field(default_factory=dict)
    is_generator: bool = False
    # the transformation sites of this file that trace it (id of the site's call, or
    # of the decorated def's name) and their reasons: for path facts at those sites
    trace_sites: set[int] = field(default_factory=set)
    site_reasons: set[str] = field(default_factory=set)
    # the sites among them that are `jax.vmap(f)(...)` called at once, with the unit each
    # is written in: vmap runs what does not touch the batched values eagerly, so
    # `jnp` results of concrete data are concrete there (unless that unit is traced)
    eager_sites: dict[int, "Unit"] = field(default_factory=dict)
    # a method called in traced code on an object built in that same trace (`g = Game(x);
    # g.step(y)`): the reasons that came only from such calls, and those that came (also)
    # from a receiver that outlives the trace (model/calls.py; JAX403 reads them)
    fresh_reasons: set[str] = field(default_factory=set)
    held_reasons: set[str] = field(default_factory=set)

    # the reasons it is traced that hold only for instances of some classes (a method a
    # class inherits, run on its instance there: `RebayesSWEKF(...).scan(...)` under vmap):
    # reason -> those classes (`module:qualname`), model/overrides.py
    receiver_reasons: dict[str, set[str]] = field(default_factory=dict)

    def traced_receivers(self) -> Optional[set[str]]:
        """The classes whose instances this method runs traced on, when every reason it is
        traced names them (model/overrides.py); None: any instance (a jit of the method
        itself, a call whose receiver's class is unknown)."""
        if not self.reasons or any(r not in self.receiver_reasons for r in self.reasons):
            return None
        out: set[str] = set()
        for r in self.reasons:
            out |= self.receiver_reasons[r]
        return out

    def only_fresh_receivers(self) -> bool:
        """Is every reason this method is traced a call on an object built inside the
        calling trace (its attributes are the trace's own locals: nothing outlives it)?"""
        return bool(self.fresh_reasons) and all(
            r in self.fresh_reasons and r not in self.held_reasons for r in self.reasons)
    # reasons it is traced that come from calls in such eagerly run code
    eager_reasons: set[str] = field(default_factory=set)
    # wrapped by a filtering transformation (`eqx.filter_jit`): a parameter that no
    # annotation marks is traced when a call passes it an array (model/index.py)
    filtered_params: set[str] = field(default_factory=set)
    # the kind (model/kinds.py) every call seen so far passes for each parameter,
    # joined over the calls of this file (``local_calls`` of them) and of other modules;
    # ``escapes``: a module that imports it uses it other than by calling it
    arg_kinds: dict[str, str] = field(default_factory=dict)
    local_calls: int = 0
    # a jitted function of this file called in other modules with a JAX or NumPy array
    # (or a PRNG key) in a parameter it declares static: parameter -> [[kind, path], ...]
    # (model/calls.py records the calls, jaxlint/project/facts.py routes them here)
    static_given: dict[str, list] = field(default_factory=dict)
    # the kinds the calls from traced code of this file pass (a method reached through a
    # holder, `model.apply(v, x)` -> `__call__`), joined (model/calls.py, walker.py)
    traced_arg_kinds: dict[str, str] = field(default_factory=dict)
    # the ``__call__`` of a flax/equinox/haiku module class of this file: the kinds the
    # calls ``Cls(...)(...)`` of this file pass (a Python value named ``python``,
    # model/kinds.py), joined, and how many such calls there are (model/calls.py,
    # walker.py: a parameter every call gives a Python value holds no tracer)
    direct_kinds: dict[str, str] = field(default_factory=dict)
    direct_calls: int = 0
    # a body given to a loop primitive of this file (``lax.fori_loop(0, n, body, (xs, h))``):
    # the value of the initial carry each site passes to its carry parameter, joined
    # (model/calls.py), and how many sites there are (model/walker.py: the carry keeps
    # the initial value's Python structure, every leaf a tracer)
    carry_values: dict[str, object] = field(default_factory=dict)  # model/values.py Values
    carry_sites: int = 0
    escapes: bool = False
    # the shapes each call of this file passes (id of the call -> (the name it is called
    # through, param -> shape or None)), and whether another module calls or uses it
    # (model/arg_shapes.py)
    shape_sites: dict[int, tuple] = field(default_factory=dict)
    foreign_uses: bool = False
    # differentiated (`jax.grad(f)(x)`, `jax.vjp(f, x)`...) where no jit/vmap/scan is
    # around: the parameters given the JVP/linearize tracers of concrete values, and
    # why.  Alone (``traced`` False) the body runs eagerly with those tracers:
    # `if x > 0` and `float(x)` work, NumPy conversion and `print` see tracers
    # (model/gradtrace.py)
    grad_params: set[str] = field(default_factory=set)
    grad_reasons: list[str] = field(default_factory=list)
    # those of ``grad_reasons`` that another module told come from forward mode only
    # (a caller there differentiated only by `jax.jacfwd`/`jax.jvp`: gradtrace.FORWARD_ONLY)
    forward_reasons: set[str] = field(default_factory=set)
    # a def decorated with jax.custom_jvp/custom_vjp: differentiated outside jit, its body
    # runs on the primal values (model/custom_rules.is_custom_def)
    custom_primal: bool = False

    @property
    def concrete_traced(self) -> bool:
        """Traced only by differentiation outside jit: its tracers hold concrete values
        (not a custom_jvp/custom_vjp def: JAX runs it on the primal values)."""
        return bool(self.grad_reasons) and not self.traced and not self.host and not self.custom_primal

    @property
    def jitted_itself(self) -> bool:
        """Jitted (or pmapped) itself: a decorator or a wrapper names the jit, not a loop
        primitive it is the body of or a traced caller (its trace is cached per jit)."""
        return any(("jit" in r or "pmap" in r) and not r.startswith(("a body", "called from"))
                   for r in self.reasons)

    @property
    def is_module(self) -> bool:
        return type(self.node) is cst.Module  # (isinstance goes through the ABC machinery: slow)

    def param(self, name: str) -> Optional[ParamInfo]:
        for p in self.params:
            if p.name == name:
                return p
        return None

    def note_star_kw(self, name: str) -> None:
        """A traced caller gives keyword ``name`` a tracer, no parameter takes it by name:
        it lands in the ``**kwargs`` parameter, if there is one."""
        if any(p.kind == "kwarg" for p in self.params):
            self.traced_star_kw.add(name)

    def positional(self) -> list[ParamInfo]:
        return [p for p in self.params if p.kind in ("pos", "posonly")]

    def lookup_def(self, name: str) -> Optional["Unit"]:
        """The function ``name`` denotes here, by the nearest enclosing scope's defs."""
        u: Optional[Unit] = self
        while u is not None:
            if name in u.defs:
                return u.defs[name]
            u = u.parent
        return None

    def binding_for(self, name: str, seq: int) -> Optional[tuple["Unit", tuple]]:
        """The binding of ``name`` visible at statement ``seq`` of this unit:
        (unit holding it, (seq, assigned expression or None for a def)), or None.
        In this unit the latest binding before ``seq`` counts; in an enclosing
        unit its final binding (the function runs after that scope is set up)."""
        u: Optional[Unit] = self
        while u is not None:
            entries = u.bindings.get(name)
            if entries:
                if u is self:
                    before = [e for e in entries if e[0] < seq]
                    chosen = before[-1] if before else entries[-1]
                else:
                    chosen = entries[-1]
                return u, chosen
            if (u.param(name) is not None or name in u.assigned) and name not in u.global_names \
                    and name not in u.nonlocal_names:
                # a parameter (or a name bound here by a loop, `with ... as`, an import...):
                # it shadows the enclosing scopes' bindings, and its value is not one of them
                return None
            u = u.parent
        return None

    def pass_class(self, name: str, cls: object) -> None:
        """A traced caller passes ``cls`` (or None: unknown) for parameter ``name``."""
        if name not in self.param_classes:
            self.param_classes[name] = cls
            return
        had = self.param_classes[name]
        if had is cls:
            return
        if had is None or cls is None:
            self.param_classes[name] = None  # a caller passes a value of no known class
            return
        self.param_classes[name] = pytrees.PyClass(pytrees.merge(had.flat, cls.flat))  # type: ignore[attr-defined]

    def note_consts(self, consts: dict[str, tuple], traced: Optional[frozenset] = None) -> None:
        """One traced call: the constant (a 1-tuple) it gives each parameter it gives
        one (a parameter absent from ``consts`` receives something else); ``traced``:
        the parameters it gives tracers (None: unknown, any)."""
        self.call_traces.append((consts, traced))
        for p in self.params:
            c = consts.get(p.name, MIXED)
            prev = self.passed_consts.get(p.name)
            if prev is None:
                self.passed_consts[p.name] = c
            elif prev is not MIXED and (c is MIXED or not same_const(prev, c)):  # type: ignore[arg-type]
                self.passed_consts[p.name] = MIXED
        self.const_calls += 1

    def passed_const(self, name: str) -> Optional[tuple]:
        """``(value,)`` when every traced call of this unit (all recorded) gives
        parameter ``name`` that one constant; else None."""
        if not self.traced_calls or self.const_calls != self.traced_calls:
            return None
        c = self.passed_consts.get(name)
        return c if isinstance(c, tuple) else None

    def mark_traced(self, reason: str) -> bool:
        changed = not self.traced
        self.traced = True
        if reason not in self.reasons:
            if changed and self.reasons and all(r.startswith(MODULE_METHOD) for r in self.reasons):
                # a module method found traced (`jax.jit(model.apply)`): what traces it
                # comes first in messages, before "a method of the module class ..."
                self.reasons.insert(0, reason)
            else:
                self.reasons.append(reason)
        return changed
