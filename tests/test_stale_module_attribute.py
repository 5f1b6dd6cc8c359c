"""JAX405 across modules: an attribute of a project module (``config.LR``) read inside a
jitted function of one module and set again by another module between two calls of it
(The Sharp Bits' ``impure_uses_globals`` split over modules, recall case 349), and
attribute chains set again in the same file.  Every INVALID project was run with JAX:
the second call kept the old value."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

from click.testing import CliRunner

from jaxlint.cli import cli

TRAIN = """\
import jax

from pkg import config


@jax.jit
def step(w, g):
    return w - config.LR * g


def plain_step(w, g):
    return w - config.LR * g
"""

MSG = ("`config.LR` is set again in {where} between two calls of `step`: under jit the attribute is "
       "read once, at trace time, and baked into the compiled function, so the later calls still use "
       "the old value until a retrace. Pass it as an argument")


def _write(root: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        p = root / name
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(textwrap.dedent(text))


def _lint(root: Path, monkeypatch) -> list[tuple[str, str, int, int, str]]:
    monkeypatch.chdir(root)
    result = CliRunner().invoke(cli, ["check", ".", "--no-cache", "--output-format", "json", "--select", "JAX405"])
    assert result.exit_code in (0, 1), result.output
    return [(f["code"], f["filename"], f["location"]["row"], f["location"]["column"], f["message"])
            for f in json.loads(result.stdout)]


def _package(root: Path) -> None:
    _write(root, {"pkg/__init__.py": "", "pkg/config.py": "LR = 0.1\n", "pkg/train.py": TRAIN})


def test_set_in_a_function_between_calls_of_an_imported_jit(tmp_path, monkeypatch):
    _package(tmp_path)
    _write(tmp_path, {"main.py": """\
        import jax.numpy as jnp

        import pkg.config as config
        from pkg.train import step


        def main():
            w, g = jnp.ones(3), jnp.ones(3)
            w = step(w, g)
            config.LR = 0.01
            return step(w, g)
        """})
    assert _lint(tmp_path, monkeypatch) == [
        ("JAX405", str(Path("pkg/train.py")), 8, 16, MSG.format(where="main.py")),
    ]


def test_set_in_a_loop_that_calls_it_through_the_module(tmp_path, monkeypatch):
    _package(tmp_path)
    _write(tmp_path, {"run.py": """\
        import jax.numpy as jnp

        import pkg.train as train
        from pkg import config

        w, g = jnp.ones(3), jnp.ones(3)
        for epoch in range(3):
            config.LR *= 0.5
            w = train.step(w, g)
        """})
    assert _lint(tmp_path, monkeypatch) == [
        ("JAX405", str(Path("pkg/train.py")), 8, 16, MSG.format(where="run.py")),
    ]


def test_wrapped_at_the_call_site_in_another_module(tmp_path, monkeypatch):
    _write(tmp_path, {
        "settings.py": "g = 0.\n",
        "model.py": """\
            import settings


            def impure_uses_globals(x):
                return x + settings.g
            """,
        "run.py": """\
            from jax import jit

            import settings
            from model import impure_uses_globals

            f = jit(impure_uses_globals)
            print(f(4.))
            settings.g = 10.
            print(f(5.))
            """,
    })
    assert _lint(tmp_path, monkeypatch) == [
        ("JAX405", "model.py", 5, 16,
         "`settings.g` is set again in run.py between two calls of `impure_uses_globals`: under jit the "
         "attribute is read once, at trace time, and baked into the compiled function, so the later calls "
         "still use the old value until a retrace. Pass it as an argument"),
    ]


def test_valid_set_before_the_first_call_after_the_last_or_around_a_plain_function(tmp_path, monkeypatch):
    _package(tmp_path)
    _write(tmp_path, {"run.py": """\
        import jax.numpy as jnp

        import pkg.train as train
        from pkg import config
        from pkg.train import plain_step

        config.LR = 0.05
        w, g = jnp.ones(3), jnp.ones(3)
        w = train.step(w, g)
        w = train.step(w, g)
        for epoch in range(3):
            config.LR *= 0.5
            w = plain_step(w, g)
        config.LR = 0.0
        """})
    assert _lint(tmp_path, monkeypatch) == []


def test_attribute_chain_set_again_in_the_same_file(tmp_path, monkeypatch):
    _write(tmp_path, {"main.py": """\
        import types

        import jax
        import jax.numpy as jnp

        cfg = types.SimpleNamespace(model=types.SimpleNamespace(scale=2.0))


        @jax.jit
        def apply(x):
            return x * cfg.model.scale


        def main():
            x = jnp.ones(3)
            y = apply(x)
            cfg.model.scale = 3.0
            return y, apply(x)


        def configured():
            cfg.model.scale = 3.0
            x = jnp.ones(3)
            return apply(x), apply(x)
        """})
    assert _lint(tmp_path, monkeypatch) == [
        ("JAX405", "main.py", 11, 16,
         "`cfg.model.scale` is set again (line 17) after `apply` has been called: under jit the attribute "
         "is read once, at trace time, and baked into the compiled function, so the later calls still use "
         "the old value until a retrace. Pass it as an argument"),
    ]
