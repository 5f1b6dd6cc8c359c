"""fastparse's test of whether a string constant is one literal or an implicit
concatenation: the quick test agrees with the full pattern on every string expression."""

from __future__ import annotations

import ast
import random

import pytest

from jaxlint.parse.fastparse import _ONE_STRING, _one_string


@pytest.mark.parametrize("s", ['""', "''", '""""""', "''''''", '"a"', 'r"a\\\\"', 'b"x"', 'rb"x"', '"a" "b"',
                               '"""a""" "b"', "'''a''' '''b'''", '"a\\"b"', '"""x\\"""y"""', '"""x"""', "'a' 'b'",
                               '"a"\n"b"', '"""a\n"""', "'\\''", '"\'"', '"""\'"""', '"x"""""', '"""' + "d" * 5000 + '"""'])
def test_the_quick_test_agrees_with_the_pattern(s):
    assert _one_string(s) == (_ONE_STRING.fullmatch(s) is not None)


def test_the_quick_test_agrees_with_the_pattern_on_random_strings():
    rng = random.Random(7)
    alphabet = ['"', "'", "\\", "a", " ", "\n", "r", "b"]
    checked = 0
    for _ in range(50000):
        s = "".join(rng.choice(alphabet) for _ in range(rng.randint(2, 9)))
        try:
            node = ast.parse(s, mode="eval").body
        except (SyntaxError, ValueError):
            continue
        if isinstance(node, ast.Constant) and isinstance(node.value, (str, bytes)):
            checked += 1
            assert _one_string(s) == (_ONE_STRING.fullmatch(s) is not None), repr(s)
    assert checked > 500
