"""The project model (jaxlint/project): roots, module names, summaries,
cross-module resolution and callers, on the fixture projects under
tests/fixtures/projects/."""

from __future__ import annotations

import json
from pathlib import Path

import libcst as cst
import pytest

from jaxlint.workspace.config import ConfigError, load_config
from jaxlint.project import (
    SUMMARY_VERSION,
    ProjectIndex,
    SourceRoots,
    Target,
    absolute_module,
    find_project_root,
)
from jaxlint.model.summary import extract_summary
from jaxlint.project.loader import load_project, load_project_at

PROJECTS = Path(__file__).resolve().parent / "fixtures" / "projects"


def fn(module: str, qualname: str) -> Target:
    return Target("function", module, qualname)


def ext(name: str) -> Target:
    return Target("external", "", name)


@pytest.fixture(scope="module")
def loaded():
    cache: dict = {}

    def get(name: str):
        if name not in cache:
            cache[name] = load_project(PROJECTS / name)
        return cache[name]

    return get


# ---- roots and module names ------------------------------------------------

@pytest.mark.parametrize(
    "rel, root",
    [
        ("abs_pkg/pkg/train.py", "abs_pkg"),  # pyproject.toml
        ("rel_pkg/proj/train/step.py", "rel_pkg"),  # setup.py
        ("cycle/cyc/x.py", "cycle"),  # setup.cfg
        ("src_layout/src/mylib/core.py", "src_layout"),
    ],
)
def test_project_root_markers(rel, root):
    assert find_project_root(PROJECTS / rel) == (PROJECTS / root).resolve()


def test_project_root_git_and_none(tmp_path):
    (tmp_path / "repo" / ".git").mkdir(parents=True)
    (tmp_path / "repo" / "a" / "b").mkdir(parents=True)
    assert find_project_root(tmp_path / "repo" / "a" / "b") == (tmp_path / "repo").resolve()
    (tmp_path / "loose").mkdir()
    assert find_project_root(tmp_path / "loose") is None


def test_module_names_default_roots():
    roots = SourceRoots.for_project(PROJECTS / "src_layout")
    name = roots.module_name(PROJECTS / "src_layout/src/mylib/core.py")
    assert (name.name, name.is_package, name.root) == (
        "mylib.core", False, (PROJECTS / "src_layout/src").resolve())
    init = roots.module_name(PROJECTS / "src_layout/src/mylib/__init__.py")
    assert (init.name, init.is_package) == ("mylib", True)
    test = roots.module_name(PROJECTS / "src_layout/tests/core_check.py")
    assert (test.name, test.root) == ("tests.core_check", (PROJECTS / "src_layout").resolve())
    ns = SourceRoots.for_project(PROJECTS / "nspkg").module_name(PROJECTS / "nspkg/ns/sub/mod.py")
    assert (ns.name, ns.is_package) == ("ns.sub.mod", False)


def test_module_names_rejected(tmp_path):
    roots = SourceRoots([tmp_path])
    assert roots.module_name(tmp_path / "my-scripts" / "train.py") is None
    assert roots.module_name(tmp_path / "notes.txt") is None
    assert roots.module_name(tmp_path.parent / "elsewhere.py") is None
    assert roots.module_name(tmp_path / "__init__.py") is None


def test_src_setting_with_glob():
    project = load_project_at(PROJECTS / "custom_src/python_modules/beta/beta_pkg/use.py")
    base = (PROJECTS / "custom_src/python_modules").resolve()
    assert project.roots.roots == (base / "alpha", base / "beta")
    assert sorted(project.index.modules) == ["alpha_pkg", "alpha_pkg.core", "beta_pkg.use"]
    assert project.index.resolve("beta_pkg.use", "kernel") == fn("alpha_pkg.core", "kernel")


def test_src_setting_validated(tmp_path):
    cfg = tmp_path / "pyproject.toml"
    cfg.write_text('[tool.jaxlint]\nsrc = "lib"\n')
    with pytest.raises(ConfigError) as exc:
        load_config(cfg)
    assert str(exc.value) == (
        f"{cfg.resolve()}: [tool.jaxlint] key 'src' must be a list of paths, got string 'lib'")
    cfg.write_text('[tool.jaxlint]\nsrc = ["lib", "."]\n')
    assert load_config(cfg).src == ["lib", "."]
    cfg.write_text('[tool.jaxlint]\nselect = ["JAX"]\n')
    assert load_config(cfg).src is None


@pytest.mark.parametrize(
    "current, is_package, level, target, expected",
    [
        ("pkg.train.step", False, 1, "losses", "pkg.train.losses"),
        ("pkg.train.step", False, 2, None, "pkg"),
        ("pkg.train.step", False, 2, "models.layers", "pkg.models.layers"),
        ("pkg.train", True, 1, None, "pkg.train"),
        ("pkg.train", True, 2, "x", "pkg.x"),
        ("pkg", True, 2, None, None),
        ("pkg.a", False, 2, None, None),
        ("pkg.a", False, 3, "x", None),
        ("pkg.a", False, 0, "jax.numpy", "jax.numpy"),
        ("app", False, 1, "x", None),  # no package to be relative to
        ("app", False, 1, None, None),
    ],
)
def test_absolute_module(current, is_package, level, target, expected):
    assert absolute_module(current, is_package, level, target) == expected


# ---- resolution on the fixture projects -------------------------------------

def test_absolute_imports(loaded):
    idx = loaded("abs_pkg").index
    assert sorted(idx.modules) == ["pkg", "pkg.losses", "pkg.train", "pkg.utils"]
    assert idx.resolve("pkg.train", "loss_fn") == fn("pkg.losses", "loss_fn")
    assert idx.resolve("pkg.train", "U.warmup") == fn("pkg.utils", "warmup")
    # `import pkg` then attributes: the submodules are imported in this project
    assert idx.resolve("pkg.train", "pkg.losses.body") == fn("pkg.losses", "body")
    assert idx.resolve("pkg.train", "pkg.utils.warmup") == fn("pkg.utils", "warmup")
    assert idx.resolve("pkg.train", "pkg") == Target("module", "pkg", "")
    assert idx.resolve("pkg.train", "jax.lax.scan") == ext("jax.lax.scan")
    assert idx.resolve("pkg.losses", "jnp.mean") == ext("jax.numpy.mean")
    assert idx.resolve("pkg.train", "undefined_name") is None
    assert idx.resolve("pkg.train", "train_step.attr") is None


def test_relative_imports(loaded):
    idx = loaded("rel_pkg").index
    m = "proj.train.step"
    assert idx.resolve(m, "Dense") == Target("class", "proj.models.layers", "Dense")
    assert idx.resolve(m, "models.heads.classifier") == fn("proj.models.heads", "classifier")
    assert idx.resolve(m, "A") == fn("proj.models.layers", "act")
    assert idx.resolve(m, "sibling.clip") == fn("proj.train.sibling", "clip")
    assert idx.resolve(m, "clip") == fn("proj.train.sibling", "clip")
    assert idx.resolve(m, "models.Dense.project") == fn("proj.models.layers", "Dense.project")
    # `from ..... import too_far` climbs above the top-level package
    assert idx.resolve(m, "too_far") is None


def test_src_layout(loaded):
    idx = loaded("src_layout").index
    assert idx.resolve("tests.core_check", "forward") == fn("mylib.core", "forward")
    assert idx.resolve("tests.core_check", "mylib.forward") == fn("mylib.core", "forward")


def test_reexports_and_all(loaded):
    idx = loaded("reexport").index
    assert idx.resolve("app", "public_fn") == fn("lib.impl", "public_fn")
    assert idx.resolve("app", "renamed") == fn("lib.impl", "helper")
    assert idx.resolve("app", "lib.renamed") == fn("lib.impl", "helper")
    # a chain: app -> lib.api.alias (an assignment) -> lib.api.again -> lib.renamed
    assert idx.resolve("app", "lib.api.alias") == fn("lib.impl", "helper")
    assert idx.resolve("app", "alias") == fn("lib.impl", "helper")
    assert idx.resolve("app", "lib.Config.size") == Target("assign", "lib.impl", "Config.size")
    assert idx.modules["lib"]["all"] == ["public_fn", "renamed", "Config"]


def test_star_imports(loaded):
    idx = loaded("star").index
    assert idx.resolve("user", "add") == fn("ops.basic", "add")
    assert idx.resolve("user", "mul") is None  # not in basic's __all__
    assert idx.resolve("user", "pub") == fn("ops.more", "pub")  # no __all__: public names
    assert idx.resolve("user", "_priv") is None
    assert idx.resolve("user", "np") == ext("numpy")
    assert idx.resolve("user", "ops.add") is None  # `ops` itself is not bound in user


def test_import_cycle(loaded):
    idx = loaded("cycle").index
    assert idx.resolve("cyc.x", "g") == fn("cyc.y", "g")
    assert idx.resolve("cyc.y", "x.f") == fn("cyc.x", "f")
    # x imports loop from y, y imports loop from x: defined nowhere
    assert idx.resolve("cyc.x", "loop") is None
    assert idx.resolve("cyc.y", "loop") is None
    # two modules star-importing each other
    assert idx.resolve("cyc.star_a", "b_fn") == fn("cyc.star_b", "b_fn")
    assert idx.resolve("cyc.star_b", "a_fn") == fn("cyc.star_a", "a_fn")
    assert idx.resolve("cyc.star_a", "missing") is None


def test_namespace_package(loaded):
    idx = loaded("nspkg").index
    assert sorted(idx.modules) == ["ns.sub.mod", "ns.sub.other", "user"]
    assert idx.resolve("user", "ns.sub.mod.fn") == fn("ns.sub.mod", "fn")
    assert idx.resolve("user", "ns.sub") == Target("module", "ns.sub", "")
    assert idx.resolve("user", "other.use") == fn("ns.sub.other", "use")
    assert idx.resolve("ns.sub.other", "mod.fn") == fn("ns.sub.mod", "fn")
    assert idx.resolve("ns.sub.other", "fn") == fn("ns.sub.mod", "fn")


def test_dynamic_imports_stay_unknown(loaded):
    idx = loaded("dynamic").index
    assert idx.resolve("app", "mod.run") is None
    assert idx.resolve("app", "runner.a.run") is None
    assert idx.resolve("app", "importlib.import_module") == ext("importlib.import_module")


def test_submodule_attribute_needs_an_import(tmp_path):
    (tmp_path / "pyproject.toml").write_text("")
    (tmp_path / "p").mkdir()
    (tmp_path / "p" / "__init__.py").write_text("")
    (tmp_path / "p" / "never.py").write_text("def f():\n    pass\n")
    (tmp_path / "main.py").write_text("import p\np.never.f()\n")
    idx = load_project(tmp_path).index
    # p/__init__ does not import `never` and no module imports p.never
    assert idx.resolve("main", "p.never.f") is None
    (tmp_path / "other.py").write_text("from p.never import f\n")
    idx = load_project(tmp_path).index
    assert idx.resolve("main", "p.never.f") == fn("p.never", "f")


def test_bounded_chain_of_reexports(tmp_path):
    (tmp_path / "pyproject.toml").write_text("")
    n = 40
    (tmp_path / "m0.py").write_text("def target():\n    pass\n")
    for i in range(1, n + 1):
        (tmp_path / f"m{i}.py").write_text(f"from m{i - 1} import target\n")
    summaries = [load_project(tmp_path).index.modules[f"m{i}"] for i in range(n + 1)]
    assert ProjectIndex(summaries).resolve(f"m{n}", "target") == fn("m0", "target")
    # the same chain past the step budget is unknown, not an error
    assert ProjectIndex(summaries, max_steps=20).resolve(f"m{n}", "target") is None


# ---- summaries ------------------------------------------------------------

SOURCE = '''\
import jax
from functools import partial
from . import losses

__all__ = ["step"]
__all__.append("Model")


@partial(jax.jit, static_argnums=(1,))
def step(params, n, *rest, lr=0.1, **kw):
    import numpy as np

    def inner(z):
        return losses.f(z)

    out = losses.loss_fn(params, n, params.shape[0] * 2, "mean", lr=lr, extra=-1)
    np.sum(*rest)
    inner(out)
    g = lambda q: losses.g(q, params)
    return jax.lax.scan(losses.body, out, None)


class Model:
    dim = 3

    def __call__(self, x):
        return self.helper(x)

    def helper(self, x):
        return x


fast = jax.jit(step, static_argnums=1)
try:
    from fastlib import kernel
except ImportError:
    kernel = None
'''


def test_summary_contents():
    s = extract_summary(cst.parse_module(SOURCE), "pkg.train", False)
    assert s["version"] == SUMMARY_VERSION and s["module"] == "pkg.train"
    assert s["all"] == ["step", "Model"]
    assert s["names"]["losses"] == {"k": "from", "m": "pkg", "n": "losses"}
    assert s["names"]["kernel"] == {"k": "ambiguous"}
    assert s["names"]["fast"] == {"k": "def", "q": "fast"}
    step = s["defs"]["step"]
    # only what resolving names needs: no parameters, no decorators (the engine's output carries those)
    assert step == {"kind": "function", "imports": {"np": {"k": "module", "m": "numpy"}}}
    assert step["imports"] == {"np": {"k": "module", "m": "numpy"}}
    assert "calls" not in s  # what traced code calls comes from the engine (facts.py), not the summary
    assert s["defs"]["Model"]["members"] == {
        "dim": {"k": "def", "q": "Model.dim"},
        "__call__": {"k": "def", "q": "Model.__call__"},
        "helper": {"k": "def", "q": "Model.helper"},
    }
    assert s["defs"]["fast"]["value"] == {
        "k": "call", "callee": "jax.jit", "bind": "module",
        "args": [{"k": "ref", "ref": "step", "bind": "module"},
                 {"k": "literal", "value": 1, "kw": "static_argnums"}]}
    assert s["imported"] == ["fastlib", "fastlib.kernel", "functools", "functools.partial",
                             "jax", "numpy", "pkg", "pkg.losses"]


def test_summary_json_round_trip_and_version():
    s = extract_summary(cst.parse_module(SOURCE), "pkg.train", False)
    again = json.loads(json.dumps(s))
    assert again == s
    idx = ProjectIndex([again])
    assert idx.resolve("pkg.train", "fast") == Target("assign", "pkg.train", "fast")
    stale = dict(s, version=SUMMARY_VERSION + 1)
    assert ProjectIndex().add(stale) is False


def test_duplicate_module_names_are_unknown():
    a = extract_summary(cst.parse_module("def f():\n    pass\n"), "tools", False)
    b = extract_summary(cst.parse_module("def g():\n    pass\n"), "tools", False)
    user = extract_summary(cst.parse_module("from tools import f\n"), "user", False)
    idx = ProjectIndex([a, b, user])
    assert idx.resolve("user", "f") is None
    assert "tools" in idx.duplicates


def test_unparsable_file_is_one_line(tmp_path):
    (tmp_path / "pyproject.toml").write_text("")
    (tmp_path / "good.py").write_text("def f():\n    pass\n")
    (tmp_path / "bad.py").write_text("def (:\n")
    project = load_project(tmp_path)
    assert sorted(project.index.modules) == ["good"]
    assert len(project.errors) == 1
    assert project.errors[0].startswith(f"{tmp_path / 'bad.py'}: syntax error: ")
    assert "\n" not in project.errors[0]


def test_missing_project_module_is_not_external():
    pkg = extract_summary(cst.parse_module(""), "pkg", True)
    user = extract_summary(cst.parse_module("import pkg.gone\nfrom pkg.gone import f\n"), "user", False)
    idx = ProjectIndex([pkg, user])
    assert idx.resolve("user", "f") is None
    assert idx.resolve("user", "pkg.gone.f") is None
    assert idx.resolve("user", "pkg") == Target("module", "pkg", "")


def test_summary_reads_one_line_bodies():
    # `try: import x` / `if c: from m import n` bind names as the indented forms do
    src = ("try: import numpy as np\n"
           "except ImportError: np = None\n"
           "if True: from pkg.types import Params\n")
    names = extract_summary(cst.parse_module(src), "pkg.m", False)["names"]
    assert names == {"np": {"k": "ambiguous"}, "Params": {"k": "from", "m": "pkg.types", "n": "Params"}}


def test_jits_reached_through_an_imported_module_go_to_files_that_name_them():
    from jaxlint.project.facts import incoming_facts

    decl = {"params": [["state", "pos", 0, False, False]], "checked": True, "exact": True,
            "static_nums": [], "static_names": [], "donate_nums": [0], "donate_names": [],
            "donate_literal": True}
    step = "import jax\n@jax.jit\ndef update(state):\n    return state\n"
    uses = "import pkg.step as S\n\ndef train(s):\n    return S.update(s)\n"
    mentions = "import pkg.step as S\n\ndef other(s):\n    return S\n"
    texts = {"pkg/step.py": step, "pkg/uses.py": uses, "pkg/mentions.py": mentions}
    outputs = []
    for path, text in texts.items():
        name = path[:-3].replace("/", ".")
        proj = {"calls": [], "sites": [], "summary": extract_summary(cst.parse_module(text), name, False)}
        if name == "pkg.step":
            proj["jits"] = {"update": decl}
        outputs.append((name, path, proj))
    index = ProjectIndex([o[2]["summary"] for o in outputs])
    path_of = {o[0]: o[1] for o in outputs}
    facts = incoming_facts(index, outputs, path_of, text_of=lambda p: texts[p].encode())
    assert facts == {"pkg/uses.py": {"jits": {"S.update": decl}}}  # not the file that never calls it
