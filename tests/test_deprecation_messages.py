"""A removed API with no replacement says so in a sentence ("with nothing public to
use instead"), not "use nothing public instead"; a replacement that is an instruction
reads as one."""

import json

from click.testing import CliRunner

from jaxlint.cli import cli


def _messages(tmp_path, monkeypatch, text):
    (tmp_path / "m.py").write_text(text)
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(cli, ["check", "m.py", "--no-cache", "--output-format", "json"])
    return [(f["code"], f["location"]["row"], f["location"]["column"], f["message"]) for f in json.loads(result.stdout)]


def test_removed_apis_with_no_replacement_and_an_instruction(tmp_path, monkeypatch):
    text = "import jax\nimport jax.util\nfrom jax.dlpack import to_dlpack\nfrom jax.core import traverse_jaxpr_params\n"
    assert _messages(tmp_path, monkeypatch, text) == [
        ("JAX901", 2, 8, "`import jax.util` was removed in JAX 0.8.0, with nothing public to use instead "
                         "(copy the helper)"),
        ("JAX901", 3, 24, "`from jax.dlpack import to_dlpack` was removed in JAX 0.8.0 (deprecated in 0.6.0): "
                          "use the consumer's `from_dlpack` (pass it the array itself, or call `x.__dlpack__()`) "
                          "instead"),
        ("JAX901", 4, 22, "`from jax.core import traverse_jaxpr_params` was removed in JAX 0.10.0 (deprecated "
                          "in 0.8.2), with nothing public to use instead"),
    ]
