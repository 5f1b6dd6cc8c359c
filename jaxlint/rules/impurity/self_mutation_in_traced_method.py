"""JAX403 self-mutation-in-traced-method: `self.attr = ...` / `self.n += 1` in a traced method runs once per trace, not per call."""

from __future__ import annotations

from typing import Optional

import libcst as cst

from jaxlint.engine.rule import Invalid, Rule, Valid
from jaxlint.findings import Severity
from jaxlint.model.walk import walk_tree
from jaxlint.rules.impurity._common import assign_pairs


_INIT_METHODS = frozenset({"__init__", "__post_init__", "__new__", "__setattr__", "setup", "__setstate__"})


def _reads_attr(e: cst.CSTNode, me: str, attr: str) -> bool:
    return any(isinstance(n, cst.Attribute) and isinstance(n.value, cst.Name) and n.value.value == me
               and n.attr.value == attr
               for n in walk_tree(e, lambda n: isinstance(n, (cst.Lambda, cst.FunctionDef))))


class SelfMutationInTraced(Rule):
    code = "JAX403"
    name = "self-mutation-in-traced-method"
    runtime_check = "two jitted calls compared: the object's attribute changes on the first call only."
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
    use_instead = "Keep the state outside and pass it through:\n\n```python\n@jax.jit\ndef count(n):\n    n = n + 1\n    return n, n\n```"
    fix_safety = "No automatic fix: the state has to become an argument and an output."
    VALID = [
        Valid(
            """
            import jax

            class Model:
                def __init__(self, w):
                    self.w = w
                    self.calls = 0

                def apply(self, x):
                    return x @ self.w

            f = jax.jit(Model(1.0).apply)
            """
        ),
        # flax modules handle their own state
        Valid(
            """
            import flax.linen as nn
            import jax

            class Block(nn.Module):
                def setup(self):
                    self.dense = nn.Dense(3)

                def __call__(self, x: jax.Array):
                    return self.dense(x)
            """
        ),
        # not traced
        Valid(
            """
            class Counter:
                def __init__(self):
                    self.n = 0

                def count(self):
                    self.n += 1
                    return self.n
            """
        ),
    ]

    INVALID = [
        Invalid(
            """
            import jax

            class Counter:
                def __init__(self):
                    self.n = 0

                def count(self):
                    self.n += 1
                    return self.n

            counter = Counter()
            fast_count = jax.jit(counter.count)
            """,
            expected=[(8, 9)],
            messages=[
                "`self.n` is assigned inside traced method `count`: the update runs once, at trace time: compiled calls never repeat it. Pass the state in as an argument and return the new state",
            ],
        ),
        Invalid(
            """
            from functools import partial
            import jax

            class Acc:
                def __init__(self):
                    self.total = 0.0

                @partial(jax.jit, static_argnums=0)
                def add(self, x):
                    self.total = self.total + x
                    return self.total
            """,
            expected=[(10, 9)],
            messages=[
                "`self.total` is assigned inside traced method `add`: it stores a tracer in the object (UnexpectedTracerError when read later), and compiled calls never repeat it. Pass the state in as an argument and return the new state",
            ],
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
        for target, value in assign_pairs(node):
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

    visit_AugAssign = visit_AnnAssign = visit_Assign
