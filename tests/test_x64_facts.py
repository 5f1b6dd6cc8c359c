"""What a file tells its project about x64 (jaxlint/model/x64.py through
jaxlint/engine/project.py): the kind of each module-level helper, the project
functions its x64 code reaches, and whether importing it switches x64 on."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

from jaxlint.lint import linter
from jaxlint.workspace.config import ConfigStore, Overrides
from jaxlint.workspace.ruleinfo import load_rule_infos

FIXTURE = Path(__file__).parent / "fixtures" / "xmodule" / "x64_pkg"


def _project_out(tmp_path: Path, rel: str, text: str, facts=None) -> dict:
    store = ConfigStore(load_rule_infos(), Overrides(), tmp_path)
    settings = replace(store.settings_for(tmp_path / "x.py"), module=rel[:-3].replace("/", "."),
                       project_packages=frozenset({"dbl", "checks"}), facts=facts)
    return linter.lint_source(text, rel, settings).project


def test_helpers_of_a_module_get_their_x64_kinds(tmp_path):
    out = _project_out(tmp_path, "dbl/testing.py", (FIXTURE / "dbl" / "testing.py").read_text())
    assert out["x64_names"] == {
        "DoubleTestCase": "case",  # its setUp enters jax.enable_x64()
        "X64": "flag",  # X64 = x64_enabled()
        "double": "cm",  # @contextmanager around jax.enable_x64(True)
        "requires_x64": "skip",  # pytest.mark.skipif(not X64, ...)
        "x64": "cm",  # return jax.enable_x64()
        "x64_enabled": "flagfn",  # return jax.config.read("jax_enable_x64")
    }
    assert "x64_import" not in out and "x64_calls" not in out


def test_x64_code_reports_the_project_functions_it_reaches(tmp_path):
    text = (FIXTURE / "checks" / "ops_checks.py").read_text()
    out = _project_out(tmp_path, "checks/ops_checks.py", text, facts=json.dumps({"x64": {"T.x64": "cm"}}))
    # `with T.x64(): reduce.total(...)`: `widen` is called with x64 off, not listed
    assert out["x64_calls"] == ["reduce.total"]


def test_a_module_switching_x64_on_at_import_says_so(tmp_path):
    assert _project_out(tmp_path, "checks/support.py", 'import jax\n\njax.config.update("jax_enable_x64", True)\n')["x64_import"]
    # inside a function: importing the module does not switch it on
    out = _project_out(tmp_path, "checks/later.py", 'import jax\n\n\ndef main():\n    jax.config.update("jax_enable_x64", True)\n')
    assert "x64_import" not in out and out["x64_names"] == {"main": "call"}
