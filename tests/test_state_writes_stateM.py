"""Module attributes written elsewhere, read from the parsed tree (branch stateM).

``config.CAPACITY`` is a module constant that a jitted function of another module reads
(``jnp.arange(config.CAPACITY)[8]``: JAX121 when it is 8).  A module of the project that
rebinds it (``config.CAPACITY = 16``, ``setattr(config, "CAPACITY", 16)``) makes its
value unknown; a line of a string that looks like such a write does not.  The writes
are read from the tree: a text look that counted triple quotes took a real write after
``QUOTE = '\"\"\"'`` for a line of a string and missed it, and did not know ``setattr``.
A single call after the change (``setattr`` then ``last(1)``) traces with the new value:
not JAX405 (the import that names ``last`` is not a call of it).
"""

from __future__ import annotations

from pathlib import Path

from project_files import lint_files

_MODEL = """\
import jax
import jax.numpy as jnp

from pkg import config


@jax.jit
def last(x):
    slots = jnp.arange(config.CAPACITY)
    return slots[8] + x
"""

_OOB = ("JAX121", "pkg/model.py", 10, 18, "index 8 is out of bounds for axis 0 with size 8, and JAX raises no "
        "IndexError: the read is clamped to the nearest valid index (silently the wrong element)")


def _project(main: str) -> dict[str, str]:
    return {"pkg/__init__.py": "", "pkg/config.py": "CAPACITY = 8\n", "pkg/model.py": _MODEL, "main.py": main}


def _lint(tmp_path: Path, monkeypatch, main: str) -> list[tuple]:
    return lint_files(tmp_path, monkeypatch, _project(main), select="JAX121,JAX405")


def test_constant_read_across_modules_is_reported(tmp_path: Path, monkeypatch) -> None:
    main = "from pkg.model import last\n\nprint(last(1))\n"
    assert _lint(tmp_path, monkeypatch, main) == [_OOB]


def test_a_write_after_a_quote_in_a_string_is_a_write(tmp_path: Path, monkeypatch) -> None:
    main = "from pkg import config\nfrom pkg.model import last\n\nQUOTE = '\"\"\"'\nconfig.CAPACITY = 16\nprint(last(1))\n"
    assert _lint(tmp_path, monkeypatch, main) == []


def test_setattr_of_the_module_is_a_write(tmp_path: Path, monkeypatch) -> None:
    main = "from pkg import config\nfrom pkg.model import last\n\nsetattr(config, \"CAPACITY\", 16)\nprint(last(1))\n"
    assert _lint(tmp_path, monkeypatch, main) == []


def test_a_write_in_a_docstring_is_not_a_write(tmp_path: Path, monkeypatch) -> None:
    main = ('"""Run the model.\n\nTo grow the table::\n\n    config.CAPACITY = 16\n"""\n'
            "from pkg.model import last\n\nprint(last(1))\n")
    assert _lint(tmp_path, monkeypatch, main) == [_OOB]


def test_a_global_setter_makes_the_constant_unknown(tmp_path: Path, monkeypatch) -> None:
    files = _project("from pkg import config\nfrom pkg.model import last\n\nconfig.grow(16)\nprint(last(1))\n")
    files["pkg/config.py"] = "CAPACITY = 8\n\n\ndef grow(n):\n    global CAPACITY\n    CAPACITY = n\n"
    assert lint_files(tmp_path, monkeypatch, files, select="JAX121,JAX405") == []


def test_setattr_between_two_calls_is_reported(tmp_path: Path, monkeypatch) -> None:
    main = ("from pkg import config\nfrom pkg.model import last\n\nprint(last(1))\n"
            "setattr(config, \"CAPACITY\", 16)\nprint(last(1))\n")
    assert _lint(tmp_path, monkeypatch, main) == [
        ("JAX405", "pkg/model.py", 9, 24, "`config.CAPACITY` is set again in main.py between two calls of `last`: "
         "under jit the attribute is read once, at trace time, and baked into the compiled function, so the later "
         "calls still use the old value until a retrace. Pass it as an argument")]
