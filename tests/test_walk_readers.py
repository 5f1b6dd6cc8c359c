"""The model's child readers (``model/walk.children``) and the node classes' instance
checks (``parse/libcst_compat.plain_instance_checks``): made for speed, they must give
the same answers as the plain reading of libcst's fields and ``ABCMeta``'s checks."""

from __future__ import annotations

import abc
import ast
import subprocess
import sys
from pathlib import Path

import libcst as cst

import jaxlint.lint.linter  # noqa: F401  (gives the node classes their metaclass)
from jaxlint.model import walk
from jaxlint.parse import fastparse, libcst_compat

EVERY = Path(__file__).parent / "fixtures" / "fastparse" / "every_construct.py"


def _plain_children(node: cst.CSTNode) -> list[cst.CSTNode]:
    """Every node held by a field the walk reads, in field order, read one value at a time."""
    out: list[cst.CSTNode] = []
    for name in walk._fields_of(type(node)):
        value = getattr(node, name)
        for v in (value if isinstance(value, (tuple, list)) else (value,)):
            if isinstance(v, cst.CSTNode):
                out.append(v)
    return out


def _every_node(module: cst.Module) -> list[cst.CSTNode]:
    out, stack = [], [module]
    while stack:
        n = stack.pop()
        out.append(n)
        stack.extend(_plain_children(n))
    return out


def test_field_shapes_come_from_libcsts_annotations():
    assert walk._field_shapes(cst.Call)["func"] == walk._NODE
    assert walk._field_shapes(cst.Call)["args"] == walk._NODES
    assert walk._field_shapes(cst.Arg)["keyword"] == walk._OPTIONAL
    assert walk._field_shapes(cst.Name)["value"] == walk._LEAF
    assert walk._field_shapes(cst.SimpleString)["value"] == walk._LEAF
    # a node or a sentinel: read value by value
    assert "star_arg" not in walk._field_shapes(cst.Parameters)
    assert "star" not in walk._field_shapes(cst.Arg)  # a Literal


def test_children_are_the_plain_reading_on_every_node_of_both_trees():
    text = EVERY.read_text()
    built = fastparse.from_ast(ast.parse(text), text)
    parsed = cst.parse_module(text)
    classes = set()
    for module in (built, parsed):
        nodes = _every_node(module)
        assert len(nodes) > 1000
        for n in nodes:
            classes.add(type(n))
            got = walk.children(n)
            want = _plain_children(n)
            assert len(got) == len(want) and all(a is b for a, b in zip(got, want)), type(n).__name__
    assert len(classes) > 80
    # and the walks built on them give every node once, in the same order
    assert [id(n) for n in walk.walk_tree(parsed, source_order=True)] == [id(n) for n in _preorder(parsed)]


def _preorder(node: cst.CSTNode):
    yield node
    for c in _plain_children(node):
        yield from _preorder(c)


def test_children_lists_are_fresh():
    call = cst.parse_expression("f(a, b)")
    first = walk.children(call)
    first.clear()
    assert [type(c) for c in walk.children(call)] == [cst.Name, cst.Arg, cst.Arg]


def test_node_classes_check_instances_as_type_does():
    assert type(cst.Name) is libcst_compat._NodeMeta
    assert isinstance(cst.Name, abc.ABCMeta)
    samples = [cst.Name("x"), cst.Integer("1"), cst.parse_expression("f(x)"), cst.parse_statement("x = 1\n"),
               cst.Module(body=()), 1, "x", None]
    bases = [cst.CSTNode, cst.BaseExpression, cst.BaseAssignTargetExpression, cst.BaseStatement,
             cst.BaseSmallStatement, cst.BaseNumber, cst.Name, cst.Call, cst.Module, cst.SimpleStatementLine]
    for s in samples:
        for b in bases:
            assert isinstance(s, b) == (b in type(s).__mro__), (s, b)
        assert isinstance(s, tuple(bases)) == any(b in type(s).__mro__ for b in bases)
    assert issubclass(cst.Name, cst.BaseExpression) and not issubclass(cst.Name, cst.BaseStatement)
    assert libcst_compat.plain_instance_checks() is True  # idempotent


def test_a_registered_virtual_subclass_leaves_abcmeta_in_place():
    code = (
        "import abc, libcst as cst\n"
        "class Fake: pass\n"
        "cst.BaseExpression.register(Fake)\n"
        "from jaxlint.parse import libcst_compat\n"
        "print(libcst_compat.plain_instance_checks(), type(cst.Name) is abc.ABCMeta,"
        " isinstance(Fake(), cst.BaseExpression))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["False", "True", "True"]
