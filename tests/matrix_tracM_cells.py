"""The traced-context variation matrix (tracM): every way a function becomes traced (the
rows) crossed with where the sharp bit sits relative to the traced entry (the columns).

Each cell is a small package ``<row>__<col>`` of an INVALID program (a sink that JAX
rejects or miscomputes under the trace) and its VALID twin (the fix), built from the
same templates.  ``tests/test_matrix_tracM.py`` lints all INVALID packages as one
project and all VALID twins as another, and asserts every cell's finding (code, path,
line, column, message) and every twin's silence.  ``python -m tests.matrix_tracM_cells
DIR`` writes both projects under DIR (to lint or run them by hand); ``... DIR --jax`` also
runs every cell with JAX (flax, equinox, dm-haiku and optax installed; haliax's rows are
left out) and prints each cell whose INVALID program does not fail as the sink says
(TracerBoolConversionError or ConcretizationTypeError raised, a tracer printed, one
``self.count += 1`` counted for two calls) or whose VALID twin does not run.

The sinks: ``if v > 0:`` (JAX201), ``print(v)`` (JAX401), ``float(v)`` (JAX202),
``assert v > 0`` (JAX201), ``self.count += 1`` in a method that runs traced (JAX403).
Each cell's sink rotates with its row and column, so each row meets each sink.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass, field
from pathlib import Path

HEADER = (
    "import functools\n"
    "from functools import partial\n"
    "\n"
    "import jax\n"
    "import jax.numpy as jnp\n"
    "from jax import lax\n"
)

# sink -> (lines, fixed lines, (needle of the finding's line, needle of its column), code)
SINKS = {
    "if": (["if v > 0:", "    v = v * 2"], ["v = jnp.where(v > 0, v * 2, v)"], ("if v > 0:", "v > 0"), "JAX201"),
    "print": (["print(v)"], ['jax.debug.print("{}", v)'], ("print(v)", "print(v)"), "JAX401"),
    "float": (["v = float(v) * 2"], ["v = v * 2"], ("float(v)", "float(v)"), "JAX202"),
    "assert": (["assert v > 0"], ["v = jnp.abs(v)"], ("assert v > 0", "v > 0"), "JAX201"),
    "mutate": (["self.count += 1"], ["v = v + 1"], ("self.count += 1", "self.count"), "JAX403"),
}
ROTATION = ("if", "print", "float", "assert")


@dataclass
class Row:
    name: str
    entry: str            # main.py after the header: {body} (the traced function's statements)
    indent: int = 4       # of {body}
    ret: str = "v"        # what the traced function returns
    method: bool = False  # the traced function is a method of class Model ({bases}, {methods})
    imports: str = ""     # main.py imports after the header
    files: dict = field(default_factory=dict)  # more files of the package ({pkg} formatted)
    base_parent: str = ""  # the base class's own base (a flax module's base is nn.Module)
    base_imports: str = ""
    libs: tuple = ()
    mutate: bool = False  # the self-mutation sink applies (a plain class's method)


ROWS = [
    Row("jit_decorator", "@jax.jit\ndef step(v):\n{body}\n"),
    Row("jit_bare", "@jit\ndef step(v):\n{body}\n", imports="from jax import jit\n"),
    Row("partial_jit", "@partial(jax.jit, static_argnums=(1,))\ndef step(v, n):\n{body}\n"),
    Row("functools_partial_jit",
        "@functools.partial(jax.jit, static_argnames=(\"n\",))\ndef step(v, n=2):\n{body}\n"),
    Row("jit_module_assign", "def _step(v):\n{body}\n\n\nstep = jax.jit(_step)\n"),
    Row("jit_in_function", "def _step(v):\n{body}\n\n\ndef run(xs):\n    fast = jax.jit(_step)\n    return fast(xs)\n"),
    Row("jit_lambda", "def step(v):\n{body}\n\n\nrun = jax.jit(lambda v: step(v) + 1)\n"),
    Row("jit_method_in_init",
        "class Model{bases}:\n    def __init__(self):\n        self.count = 0\n        self.fwd = jax.jit(self.step)\n\n"
        "    def step(self, v):\n{body}\n{methods}", indent=8, method=True, mutate=True),
    Row("jit_method_partial_self",
        "class Model{bases}:\n    def __init__(self):\n        self.count = 0\n\n"
        "    @partial(jax.jit, static_argnums=0)\n    def step(self, v):\n{body}\n{methods}",
        indent=8, method=True, mutate=True),
    Row("vmap", "def step(v):\n{body}\n\n\nbatched = jax.vmap(step)\n"),
    Row("pmap", "def step(v):\n{body}\n\n\nparallel = jax.pmap(step)\n"),
    Row("grad_in_jit", "def step(v):\n{body}\n\n\n@jax.jit\ndef train(x):\n    return jax.grad(step)(x)\n"),
    Row("value_and_grad_in_jit",
        "def step(v):\n{body}\n\n\n@jax.jit\ndef train(x):\n    return jax.value_and_grad(step)(x)\n"),
    Row("jacrev_in_jit", "def step(v):\n{body}\n\n\n@jax.jit\ndef train(x):\n    return jax.jacrev(step)(x)\n"),
    Row("hessian_in_jit", "def step(v):\n{body}\n\n\n@jax.jit\ndef train(x):\n    return jax.hessian(step)(x)\n"),
    Row("checkpoint", "def step(v):\n{body}\n\n\ndef run(x):\n    return jax.checkpoint(step)(x)\n"),
    Row("remat_decorator", "@jax.remat\ndef step(v):\n{body}\n"),
    Row("scan_body", "def step(c, v):\n{body}\n\n\ndef run(xs):\n    return lax.scan(step, 0.0, xs)\n", ret="c, v"),
    Row("fori_body", "def step(v, acc):\n{body}\n\n\ndef run():\n    return lax.fori_loop(0, 3, step, 0)\n",
        ret="acc + v"),
    Row("while_body", "def step(v):\n{body}\n\n\ndef run():\n    return lax.while_loop(lambda v: v < 10, step, 1)\n",
        ret="v + 1"),
    Row("while_cond", "def step(v):\n{body}\n\n\ndef run():\n    return lax.while_loop(step, lambda v: v + 1, 1)\n",
        ret="v < 10"),
    Row("cond_branch", "def step(v):\n{body}\n\n\ndef run(p, x):\n    return lax.cond(p, step, lambda v: v, x)\n"),
    Row("switch_branch",
        "def step(v):\n{body}\n\n\ndef run(i, x):\n    return lax.switch(i, [step, lambda v: -v], x)\n"),
    Row("lax_map", "def step(v):\n{body}\n\n\ndef run(xs):\n    return lax.map(step, xs)\n"),
    Row("custom_vjp",
        "@jax.custom_vjp\ndef step(v):\n{body}\n\n\ndef step_fwd(v):\n    return step(v), v\n\n\n"
        "def step_bwd(res, g):\n    return (g,)\n\n\nstep.defvjp(step_fwd, step_bwd)\n\n\n"
        "@jax.jit\ndef train(x):\n    return jax.grad(step)(x)\n"),
    Row("custom_vjp_bwd",
        "@jax.custom_vjp\ndef f(x):\n    return x\n\n\ndef f_fwd(x):\n    return f(x), x\n\n\n"
        "def step(res, v):\n{body}\n\n\nf.defvjp(f_fwd, step)\n\n\n"
        "@jax.jit\ndef train(x):\n    return jax.grad(f)(x)\n", ret="(v,)"),
    Row("custom_jvp",
        "@jax.custom_jvp\ndef step(v):\n{body}\n\n\n@step.defjvp\ndef step_jvp(primals, tangents):\n"
        "    (x,), (t,) = primals, tangents\n    return step(x), t\n\n\n"
        "@jax.jit\ndef train(x):\n    return jax.grad(step)(x)\n"),
    Row("shard_map",
        "def step(v):\n{body}\n\n\n@jax.jit\ndef run(x):\n    mesh = jax.make_mesh((1,), (\"i\",))\n"
        "    return jax.shard_map(step, mesh=mesh, in_specs=P(), out_specs=P())(x)\n",
        imports="from jax.sharding import PartitionSpec as P\n"),
    Row("pjit", "def step(v):\n{body}\n\n\nstep_p = pjit(step)\n", imports="from jax.experimental.pjit import pjit\n"),
    Row("eqx_filter_jit", "@eqx.filter_jit\ndef step(v):\n{body}\n\n\nstep(jnp.ones(()))\n",
        imports="import equinox as eqx\n", libs=("equinox",)),
    Row("eqx_filter_vmap", "def step(v):\n{body}\n\n\nbatched = eqx.filter_vmap(step)\nbatched(jnp.ones(3))\n",
        imports="import equinox as eqx\n", libs=("equinox",)),
    Row("eqx_filter_grad_in_filter_jit",
        "def step(v):\n{body}\n\n\n@eqx.filter_jit\ndef train(x):\n    return eqx.filter_grad(step)(x)\n\n\n"
        "train(jnp.ones(()))\n", imports="import equinox as eqx\n", libs=("equinox",)),
    Row("eqx_filter_value_and_grad_in_jit",
        "def step(v):\n{body}\n\n\n@jax.jit\ndef train(x):\n    return eqx.filter_value_and_grad(step)(x)\n",
        imports="import equinox as eqx\n", libs=("equinox",)),
    Row("flax_compact_apply_in_jit",
        "class Model({bases}):\n    @nn.compact\n    def __call__(self, v):\n{body}\n{methods}\n\n"
        "@jax.jit\ndef train(params, x):\n    return Model().apply(params, x)\n",
        indent=8, method=True, imports="import flax.linen as nn\n", base_parent="nn.Module",
        base_imports="import flax.linen as nn\n", libs=("flax",)),
    Row("flax_nn_jit",
        "class Model({bases}):\n    def __call__(self, v):\n{body}\n{methods}\n\n"
        "def train(params, x):\n    return nn.jit(Model)().apply(params, x)\n",
        indent=8, method=True, imports="import flax.linen as nn\n", base_parent="nn.Module",
        base_imports="import flax.linen as nn\n", libs=("flax",)),
    Row("haiku_transform_apply_jit",
        "def step(v):\n{body}\n\n\nforward = hk.transform(step)\napply_fn = jax.jit(forward.apply)\n",
        imports="import haiku as hk\n", libs=("dm-haiku",)),
    Row("optax_update_in_jit",
        "def init_fn(params):\n    return optax.EmptyState()\n\n\ndef step(v, state, params=None):\n{body}\n\n\n"
        "tx = optax.GradientTransformation(init_fn, step)\n\n\n"
        "@jax.jit\ndef train(g, s):\n    return tx.update(g, s)\n", ret="v, state",
        imports="import optax\n", libs=("optax",)),
    Row("user_decorator", "def compiled(fn):\n    return jax.jit(fn)\n\n\n@compiled\ndef step(v):\n{body}\n"),
    Row("user_decorator_wraps_other_module", "@compiled\ndef step(v):\n{body}\n",
        imports="from .utils import compiled\n",
        files={"utils.py": (
            "import functools\n\nimport jax\n\n\ndef compiled(fn):\n    jitted = jax.jit(fn)\n\n"
            "    @functools.wraps(fn)\n    def wrapper(*args, **kwargs):\n        return jitted(*args, **kwargs)\n\n"
            "    return wrapper\n")}),
    Row("user_decorator_absolute_import", "@compile_step\ndef step(v):\n{body}\n",
        imports="from {pkg}.compile import compile_step\n",
        files={"compile.py": "import jax\n\n\ndef compile_step(fn, donate=False):\n    return jax.jit(fn)\n"}),
    Row("user_decorator_factory_args",
        "def compiled(**jit_kwargs):\n    def deco(fn):\n        return jax.jit(fn, **jit_kwargs)\n\n    return deco\n\n\n"
        "@compiled()\ndef step(v):\n{body}\n"),
    Row("user_decorator_optional_fn_other_module", "@compiled(donate=False)\ndef step(v):\n{body}\n",
        imports="from .utils import compiled\n",
        files={"utils.py": (
            "import jax\n\n\ndef compiled(fn=None, donate=False):\n    if fn is None:\n"
            "        return lambda f: compiled(f, donate=donate)\n    return jax.jit(fn)\n")}),
    Row("factory_closure",
        "def make_step(scale):\n    @jax.jit\n    def step(v):\n{body}\n\n    return step\n", indent=8),
    Row("factory_returns_jit",
        "def make_step():\n    def step(v):\n{body}\n\n    return jax.jit(step)\n", indent=8),
    Row("jit_in_dict", "def step(v):\n{body}\n\n\nSTEPS = {{\"train\": jax.jit(step)}}\n"),
    Row("jit_in_attribute",
        "def step(v):\n{body}\n\n\nclass Runner:\n    def __init__(self):\n        self.fn = jax.jit(step)\n\n"
        "    def __call__(self, x):\n        return self.fn(x)\n"),
    Row("haliax_named_jit", "@hax.named_jit\ndef step(v):\n{body}\n\n\nstep(jnp.ones(()))\n",
        imports="import haliax as hax\n"),
    Row("haliax_named_jit_bare", "def step(v):\n{body}\n\n\nfast = named_jit(step)\nfast(jnp.ones(()))\n",
        imports="from haliax import named_jit\n"),
    Row("nnx_jit", "@nnx.jit\ndef step(v):\n{body}\n\n\nstep(jnp.ones(()))\n", imports="from flax import nnx\n", libs=("flax",)),
]

COLUMNS = ("itself", "helper", "module_abs", "module_rel", "reexport", "self_method", "base_method",
           "partial", "lambda")


@dataclass
class Cell:
    row: str
    col: str
    sink: str
    invalid: dict      # path -> text
    valid: dict
    expected: tuple    # (code, path, line, column): 1-based line and column
    sink_fn: str       # the function holding the sink


def _lines(lines: list[str], indent: int) -> str:
    return "\n".join(" " * indent + s for s in lines)


def _sink_fn(sink_lines: list[str], name: str = "check", params: str = "v", indent: int = 0,
             method: bool = False) -> str:
    head = f"def {name}(self, {params}):" if method else f"def {name}({params}):"
    body = sink_lines + ["return v"]
    return " " * indent + head + "\n" + _lines(body, indent + 4) + "\n"


def build(row: Row, col: str, sink: str, fixed: bool) -> tuple[dict, str]:
    """(files, the path of the sink's file) of one cell."""
    pkg = f"{row.name}__{col}"
    lines = SINKS[sink][1] if fixed else SINKS[sink][0]
    files = {f"{pkg}/__init__.py": ""}
    for name, text in row.files.items():
        files[f"{pkg}/{name}"] = text.replace("{pkg}", pkg)
    imports = row.imports.replace("{pkg}", pkg)
    extra = ""
    bases, methods = ("(" + row.base_parent + ")") if row.base_parent else "", ""
    if row.base_parent:
        bases = row.base_parent
    helpers = f"import jax\nimport jax.numpy as jnp\n{row.base_imports}\n\n"
    sink_path = f"{pkg}/main.py"
    body_lines = ["v = check(v)", f"return {row.ret}"]
    if col == "itself":
        body_lines = lines + [f"return {row.ret}"]
    elif col == "helper":
        extra = "\n\n" + _sink_fn(lines)
    elif col in ("module_abs", "module_rel", "reexport"):
        files[f"{pkg}/helpers.py"] = helpers + _sink_fn(lines)
        sink_path = f"{pkg}/helpers.py"
        imports += {"module_abs": f"from {pkg}.helpers import check\n",
                    "module_rel": "from .helpers import check\n",
                    "reexport": f"from {pkg} import check\n"}[col]
        if col == "reexport":
            files[f"{pkg}/__init__.py"] = "from .helpers import check\n"
    elif col == "self_method":
        if row.method:
            body_lines = ["v = self.check(v)", f"return {row.ret}"]
            methods = "\n" + _sink_fn(lines, indent=4, method=True)
        else:
            body_lines = ["v = Checker().run(v)", f"return {row.ret}"]
            extra = ("\n\nclass Checker:\n    def __init__(self):\n        self.count = 0\n\n"
                     "    def run(self, v):\n        return self.check(v)\n\n"
                     + _sink_fn(lines, indent=4, method=True))
    elif col == "base_method":
        files[f"{pkg}/helpers.py"] = helpers + (
            f"class Base{'(' + row.base_parent + ')' if row.base_parent else ''}:\n"
            + _sink_fn(lines, indent=4, method=True))
        sink_path = f"{pkg}/helpers.py"
        imports += "from .helpers import Base\n"
        if row.method:
            body_lines = ["v = self.check(v)", f"return {row.ret}"]
            bases = "(Base)" if not row.base_parent else "Base"
        else:
            body_lines = ["v = Checker().run(v)", f"return {row.ret}"]
            extra = ("\n\nclass Checker(Base):\n    def __init__(self):\n        self.count = 0\n\n"
                     "    def run(self, v):\n        return self.check(v)\n")
    elif col == "partial":
        body_lines = ["v = partial(check, 2)(v)", f"return {row.ret}"]
        extra = "\n\n" + _sink_fn(lines, params="scale, v")
    elif col == "lambda":
        body_lines = ["f = lambda u: check(u)", "v = f(v)", f"return {row.ret}"]
        extra = "\n\n" + _sink_fn(lines)
    entry = row.entry.replace("{pkg}", pkg)
    entry = entry.replace("{body}", _lines(body_lines, row.indent))
    entry = entry.replace("{bases}", bases).replace("{methods}", methods)
    entry = entry.replace("{{", "{").replace("}}", "}")
    files[f"{pkg}/main.py"] = HEADER + imports + extra + "\n\n" + entry
    return files, sink_path


def _position(text: str, sink: str) -> tuple[int, int]:
    line_needle, col_needle = SINKS[sink][2]
    for i, line in enumerate(text.splitlines(), 1):
        if line_needle in line:
            return i, line.index(col_needle) + 1
    raise AssertionError(f"no sink {sink!r} in {text!r}")


def cells() -> list[Cell]:
    out = []
    for r, row in enumerate(ROWS):
        cols = list(COLUMNS)
        for c, col in enumerate(cols):
            sink = ROTATION[(r + c) % len(ROTATION)]
            out.append(_cell(row, col, sink))
        if row.mutate:
            for col in ("itself", "self_method", "base_method"):
                out.append(_cell(row, col, "mutate", suffix="_mutate"))
    return out


def _cell(row: Row, col: str, sink: str, suffix: str = "") -> Cell:
    invalid, path = build(row, col, sink, fixed=False)
    valid, _ = build(row, col, sink, fixed=True)
    if suffix:
        invalid = {k.replace(f"{row.name}__{col}/", f"{row.name}__{col}{suffix}/", 1): v.replace(
            f"{row.name}__{col}", f"{row.name}__{col}{suffix}") for k, v in invalid.items()}
        valid = {k.replace(f"{row.name}__{col}/", f"{row.name}__{col}{suffix}/", 1): v.replace(
            f"{row.name}__{col}", f"{row.name}__{col}{suffix}") for k, v in valid.items()}
        path = path.replace(f"{row.name}__{col}/", f"{row.name}__{col}{suffix}/", 1)
    line, column = _position(invalid[path], sink)
    fn = "step" if col == "itself" else "check"
    return Cell(row.name, col + suffix, sink, invalid, valid, (SINKS[sink][3], path, line, column), fn)


def write(root: Path, which: str) -> None:
    root.mkdir(parents=True, exist_ok=True)
    (root / "pyproject.toml").write_text("")
    for cell in cells():
        for name, text in getattr(cell, which).items():
            p = root / name
            p.parent.mkdir(parents=True, exist_ok=True)
            p.write_text(text)


def run_with_jax(base: Path, which: str) -> list[tuple]:
    """Import each cell of ``base/which`` and call its entry (a driver per row) with
    JAX; the cells that do not behave as ``which`` says (see the module's docstring)."""
    import contextlib
    import importlib
    import io

    import jax.numpy as jnp

    sys.path.insert(0, str(base / which))
    X = lambda: jnp.float32(1.5)  # noqa: E731
    D = {
     "partial_jit": "m.step(X(), 2)", "jit_in_function": "m.run(X())", "jit_lambda": "m.run(X())",
     "jit_method_in_init": "o = m.Model(); o.fwd(X()); o.fwd(X()); print('COUNT', o.count)",
     "jit_method_partial_self": "o = m.Model(); o.step(X()); o.step(X()); print('COUNT', o.count)",
     "vmap": "m.batched(jnp.ones(3))", "pmap": "m.parallel(jnp.ones(1))",
     "checkpoint": "m.run(X())", "scan_body": "m.run(jnp.ones(3))", "fori_body": "m.run()",
     "while_body": "m.run()", "while_cond": "m.run()", "cond_branch": "m.run(True, X())",
     "switch_branch": "m.run(0, X())", "lax_map": "m.run(jnp.ones(3))", "shard_map": "m.run(X())",
     "pjit": "m.step_p(X())", "eqx_filter_vmap": "", "eqx_filter_grad_in_filter_jit": "",
     "flax_compact_apply_in_jit": "m.train({}, X())", "flax_nn_jit": "m.train({}, X())",
     "haiku_transform_apply_jit": "m.apply_fn({}, None, X())",
     "optax_update_in_jit": "m.train(X(), m.optax.EmptyState())",
     "factory_closure": "m.make_step(2)(X())", "factory_returns_jit": "m.make_step()(X())",
     "jit_in_dict": "m.STEPS['train'](X())", "jit_in_attribute": "m.Runner()(X())", "nnx_jit": "",
    }
    TRAIN = {"grad_in_jit", "value_and_grad_in_jit", "jacrev_in_jit", "hessian_in_jit", "custom_vjp", "custom_vjp_bwd",
             "custom_jvp", "eqx_filter_value_and_grad_in_jit"}
    bad = []
    for c in cells():
        if c.row.startswith("haliax"):
            continue
        pkg = c.expected[1].split("/")[0]
        driver = D.get(c.row, "m.train(X())" if c.row in TRAIN else "m.step(X())")
        out, err = io.StringIO(), None
        try:
            with contextlib.redirect_stdout(out):
                m = importlib.import_module(pkg + ".main")
                exec(driver, {"m": m, "X": X, "jnp": jnp})
        except Exception as e:  # noqa: BLE001 (what JAX raised is the verdict)
            err = type(e).__name__
        printed = out.getvalue()
        if which == "valid":
            ok = err is None and "Tracer" not in printed and "COUNT 1" not in printed
        elif c.sink == "print":
            ok = err is None and "Tracer" in printed
        elif c.sink == "mutate":
            ok = err is None and "COUNT 1" in printed
        else:
            ok = err in ("TracerBoolConversionError", "ConcretizationTypeError")
        if not ok:
            bad.append((pkg, c.sink, err, printed[:80]))
    return bad


if __name__ == "__main__":
    base = Path(sys.argv[1])
    write(base / "invalid", "invalid")
    write(base / "valid", "valid")
    print(len(cells()), "cells")
    if "--jax" in sys.argv:
        which = "invalid" if "--valid" not in sys.argv else "valid"
        wrong = run_with_jax(base, which)
        print(which, "cells that do not behave so:", len(wrong))
        for w in wrong:
            print(" ", w)
