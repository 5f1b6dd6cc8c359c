"""libcst trees built from CPython's tree: the analysis's parse.

libcst's own parser keeps every space and comment, and costs most of a lint
(0.85x of the whole ``libcst.parse_module``, even with its node checks off).
The analysis never reads whitespace or comments, and CPython has already parsed
the file (it judges what is valid Python).  ``from_ast`` turns that tree into
libcst nodes of the same classes and shapes as libcst's parser gives (what the
model and the rules read: names, values, operators, the order of arguments),
with the whitespace and punctuation fields left at shared defaults.  Building
them costs about a tenth of libcst's parse.

Such a tree is for reading, not for printing positions or fixes: a file whose
analysis finds something is parsed again by libcst and analysed on that tree
(``linter``), so every reported position, message and fix comes from libcst's
own tree.  What this module does not know how to build (``match`` statements,
syntax newer than it knows) raises ``Unsupported``, and the file takes libcst's
parser.  ``tests/test_fastparse.py`` holds the shapes against libcst's parser on
every construct, and the corpus check in ``bench/fastparse_check.py`` on real code.
"""

from __future__ import annotations

import ast
import re
import unicodedata
from typing import Any, Callable, Optional

import libcst as cst

from jaxlint.parse import libcst_compat
from jaxlint.parse.lines import LINE_BREAK, LINE_BREAK_BYTES

__all__ = ["DISABLED", "Unsupported", "from_ast"]


class Unsupported(Exception):
    """The tree holds something this module does not build; use libcst's parser."""


# -- node construction -------------------------------------------------------
# libcst's node classes are frozen, slotted dataclasses whose __init__ sets each
# field through object.__setattr__ and then validates the node (about 1.3 us for
# a Call).  The makers (``libcst_compat.node_maker``) set the slots directly and
# share one instance of each default (whitespace, commas): the trees are never
# mutated.  Positional arguments go to the fields this table names, in the order
# this module passes them (never libcst's field order); the others by keyword.
_POSITIONAL: dict[str, tuple[str, ...]] = {
    "AnnAssign": ('target', 'annotation', 'value'),
    "Annotation": ('annotation',),
    "Arg": ('value',),
    "AsName": ('name',),
    "Assert": ('test', 'msg'),
    "Assign": ('targets', 'value'),
    "AssignTarget": ('target',),
    "Attribute": ('value', 'attr'),
    "AugAssign": ('target', 'operator', 'value'),
    "Await": ('expression',),
    "BinaryOperation": ('left', 'operator', 'right'),
    "BooleanOperation": ('left', 'operator', 'right'),
    "Break": (),
    "Call": ('func', 'args'),
    "ClassDef": ('name', 'body', 'bases', 'keywords', 'decorators'),
    "CompFor": ('target', 'iter', 'ifs', 'inner_for_in', 'asynchronous'),
    "CompIf": ('test',),
    "Comparison": ('left', 'comparisons'),
    "ComparisonTarget": ('operator', 'comparator'),
    "Continue": (),
    "Decorator": ('decorator',),
    "Del": ('target',),
    "Dict": ('elements',),
    "DictComp": ('key', 'value', 'for_in'),
    "DictElement": ('key', 'value'),
    "Element": ('value',),
    "Ellipsis": (),
    "Else": ('body',),
    "ExceptHandler": ('body', 'type', 'name'),
    "ExceptStarHandler": ('body', 'type', 'name'),
    "Expr": ('value',),
    "Finally": ('body',),
    "Float": ('value',),
    "For": ('target', 'iter', 'body', 'orelse', 'asynchronous'),
    "From": ('item',),
    "FunctionDef": ('name', 'params', 'body', 'decorators', 'returns', 'asynchronous'),
    "GeneratorExp": ('elt', 'for_in'),
    "Global": ('names',),
    "If": ('test', 'body', 'orelse'),
    "IfExp": ('test', 'body', 'orelse'),
    "Imaginary": ('value',),
    "Import": ('names',),
    "ImportAlias": ('name', 'asname'),
    "ImportFrom": ('module', 'names'),
    "IndentedBlock": ('body',),
    "Index": ('value',),
    "Integer": ('value',),
    "Lambda": ('params', 'body'),
    "List": ('elements',),
    "ListComp": ('elt', 'for_in'),
    "Module": ('body',),
    "Name": ('value',),
    "NameItem": ('name',),
    "NamedExpr": ('target', 'value'),
    "Nonlocal": ('names',),
    "Param": ('name', 'annotation'),
    "Parameters": ('params', 'star_arg', 'kwonly_params', 'star_kwarg', 'posonly_params', 'posonly_ind'),
    "Pass": (),
    "Raise": ('exc', 'cause'),
    "Return": ('value',),
    "Set": ('elements',),
    "SetComp": ('elt', 'for_in'),
    "SimpleStatementLine": ('body',),
    "SimpleStatementSuite": ('body',),
    "SimpleString": ('value',),
    "Slice": ('lower', 'upper', 'step'),
    "StarredDictElement": ('value',),
    "StarredElement": ('value',),
    "Subscript": ('value', 'slice'),
    "SubscriptElement": ('slice',),
    "Try": ('body', 'handlers', 'orelse', 'finalbody'),
    "TryStar": ('body', 'handlers', 'orelse', 'finalbody'),
    "Tuple": ('elements',),
    "UnaryOperation": ('operator', 'expression'),
    "While": ('test', 'body', 'orelse'),
    "With": ('items', 'body', 'asynchronous'),
    "WithItem": ('item', 'asname'),
    "Yield": ('value',),
}

# libcst's layout of those classes against the one recorded in ``libcst_compat``:
# on any difference (a field reordered, renamed or added) this module is off for
# the process and every file takes libcst's parser (the same findings, slower).
DISABLED: Optional[str] = libcst_compat.layout_mismatch(_POSITIONAL)
if DISABLED is not None:
    DISABLED = f"libcst {libcst_compat.LIBCST_VERSION}: {DISABLED}"


class _Makers:
    def __getattr__(self, name: str) -> Callable[..., Any]:
        if DISABLED is not None:
            raise Unsupported(DISABLED)
        if name not in _POSITIONAL:
            raise Unsupported(f"{name}: no entry in _POSITIONAL")
        try:
            fn = libcst_compat.node_maker(getattr(cst, name), _POSITIONAL[name])
        except libcst_compat.LayoutError as exc:
            raise Unsupported(str(exc)) from None
        setattr(self, name, fn)
        return fn


mk = _Makers()

_LPAR = (cst.LeftParen(),)
_RPAR = (cst.RightParen(),)
_EMPTY_WS = cst.SimpleWhitespace("")

# -- tables ------------------------------------------------------------------

_BINOPS = {
    ast.Add: cst.Add(), ast.Sub: cst.Subtract(), ast.Mult: cst.Multiply(), ast.Div: cst.Divide(),
    ast.FloorDiv: cst.FloorDivide(), ast.Mod: cst.Modulo(), ast.Pow: cst.Power(),
    ast.LShift: cst.LeftShift(), ast.RShift: cst.RightShift(), ast.BitOr: cst.BitOr(),
    ast.BitAnd: cst.BitAnd(), ast.BitXor: cst.BitXor(), ast.MatMult: cst.MatrixMultiply(),
}
_AUGOPS = {
    ast.Add: cst.AddAssign(), ast.Sub: cst.SubtractAssign(), ast.Mult: cst.MultiplyAssign(),
    ast.Div: cst.DivideAssign(), ast.FloorDiv: cst.FloorDivideAssign(), ast.Mod: cst.ModuloAssign(),
    ast.Pow: cst.PowerAssign(), ast.LShift: cst.LeftShiftAssign(), ast.RShift: cst.RightShiftAssign(),
    ast.BitOr: cst.BitOrAssign(), ast.BitAnd: cst.BitAndAssign(), ast.BitXor: cst.BitXorAssign(),
    ast.MatMult: cst.MatrixMultiplyAssign(),
}
_UNARYOPS = {ast.USub: cst.Minus(), ast.UAdd: cst.Plus(), ast.Invert: cst.BitInvert(), ast.Not: cst.Not()}
_BOOLOPS = {ast.And: cst.And(), ast.Or: cst.Or()}
_CMPOPS = {
    ast.Eq: cst.Equal(), ast.NotEq: cst.NotEqual(), ast.Lt: cst.LessThan(), ast.LtE: cst.LessThanEqual(),
    ast.Gt: cst.GreaterThan(), ast.GtE: cst.GreaterThanEqual(), ast.In: cst.In(), ast.NotIn: cst.NotIn(),
    ast.Is: cst.Is(), ast.IsNot: cst.IsNot(),
}

# Precedence as ast.unparse has it: where CPython's tree holds a child of lower
# precedence than its place needs, the source had parentheses there; libcst's
# tree records them, and they keep the printed code of such a node (labels the
# rules compare) telling ``(a + b) * c`` from ``a + b * c``.
_P_TUPLE, _P_YIELD, _P_TEST, _P_OR, _P_AND, _P_NOT, _P_CMP, _P_EXPR = range(8)
_P_BOR, _P_BXOR, _P_BAND, _P_SHIFT, _P_ARITH, _P_TERM, _P_FACTOR, _P_POWER, _P_AWAIT, _P_ATOM = range(8, 18)
_BIN_PREC = {
    ast.BitOr: _P_BOR, ast.BitXor: _P_BXOR, ast.BitAnd: _P_BAND, ast.LShift: _P_SHIFT, ast.RShift: _P_SHIFT,
    ast.Add: _P_ARITH, ast.Sub: _P_ARITH, ast.Mult: _P_TERM, ast.Div: _P_TERM, ast.FloorDiv: _P_TERM,
    ast.Mod: _P_TERM, ast.MatMult: _P_TERM, ast.Pow: _P_POWER,
}


def _prec(node: ast.AST) -> int:
    t = type(node)
    if t is ast.BinOp:
        return _BIN_PREC[type(node.op)]  # type: ignore[attr-defined]
    if t is ast.Compare:
        return _P_CMP
    if t is ast.BoolOp:
        return _P_AND if type(node.op) is ast.And else _P_OR  # type: ignore[attr-defined]
    if t is ast.UnaryOp:
        return _P_NOT if type(node.op) is ast.Not else _P_FACTOR  # type: ignore[attr-defined]
    if t is ast.IfExp or t is ast.Lambda:
        return _P_TEST
    if t is ast.NamedExpr or t is ast.Yield or t is ast.YieldFrom:
        return _P_TUPLE
    if t is ast.Await:
        return _P_AWAIT
    if t is ast.Tuple:
        return _P_TUPLE
    return _P_ATOM


_NEWLINE = LINE_BREAK  # lines as CPython counts them (jaxlint.parse.lines)
_NEWLINE_BYTES = LINE_BREAK_BYTES
_ONE_STRING = re.compile(
    r"""[A-Za-z]{0,2}(?:'''(?:[^\\']|\\.|'(?!''))*'''|\"\"\"(?:[^\\"]|\\.|"(?!""))*\"\"\""""
    r"""|'(?:[^\\'\n]|\\.)*'|"(?:[^\\"\n]|\\.)*")""",
    re.DOTALL,
)


_LETTERS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz")


def _one_string(s: str) -> bool:
    """Is ``s`` (the source of one string constant, valid Python) a single literal,
    not an implicit concatenation?  Without its quotes inside, it is (a substring
    search, where ``_ONE_STRING`` steps through every character of a long docstring)."""
    i = 0
    while i < 2 and i < len(s) and s[i] in _LETTERS:
        i += 1
    q = s[i:i + 3]
    if q != '"""' and q != "'''":
        q = s[i:i + 1]
    n = len(q)
    if (q == '"' or q == "'" or n == 3) and len(s) >= i + 2 * n and s.endswith(q) \
            and q not in s[i + n:len(s) - n]:
        return True
    return _ONE_STRING.fullmatch(s) is not None


class _Builder:
    def __init__(self, text: str) -> None:
        self.ascii = text.isascii()
        if self.ascii:
            src: Any = text
            newline: Any = _NEWLINE
        else:
            try:  # CPython's columns count UTF-8 bytes
                src = text.encode("utf-8")
            except UnicodeEncodeError as exc:  # lone surrogates: its offsets cannot be mapped
                raise Unsupported("text that is not UTF-8") from exc
            newline = _NEWLINE_BYTES
            if not unicodedata.is_normalized("NFKC", text):
                # CPython's tree holds identifiers NFKC-normalised (`𝜈1` is `ν1`); libcst's, as written
                raise Unsupported("identifiers that NFKC changes")
        self.src = src
        self.starts = [0, *(m.end() for m in newline.finditer(src)), len(src) + 1]

    # -- source text -----------------------------------------------------------
    def line(self, i: int) -> Any:
        """Line ``i`` (0-based) of the source, as ``str`` or UTF-8 ``bytes``."""
        return self.src[self.starts[i]:self.starts[i + 1]]

    def segment(self, node: ast.AST) -> str:
        starts = self.starts
        s = self.src[starts[node.lineno - 1] + node.col_offset:  # type: ignore[attr-defined]
                     starts[node.end_lineno - 1] + node.end_col_offset]  # type: ignore[attr-defined,operator]
        return s if self.ascii else s.decode("utf-8")

    def own_line(self, node: ast.AST) -> bool:
        """Whether ``node`` (a statement) starts its line (an indented block)."""
        i = self.starts[node.lineno - 1]  # type: ignore[attr-defined]
        return not self.src[i:i + node.col_offset].strip()  # type: ignore[attr-defined]

    # -- expressions ---------------------------------------------------------
    def expr(self, node: ast.AST) -> Any:
        fn = _EXPR.get(type(node))
        if fn is None:
            raise Unsupported(type(node).__name__)
        return fn(self, node)

    def opt(self, node: Optional[ast.AST]) -> Any:
        return None if node is None else self.expr(node)

    def operand(self, node: ast.AST, need: int) -> Any:
        out = self.expr(node)
        if _prec(node) < need:
            return _paren(out)
        return out

    def x_Name(self, node: ast.Name) -> Any:
        return mk.Name(node.id)

    def x_Constant(self, node: ast.Constant) -> Any:
        v = node.value
        t = type(v)
        if t is str or t is bytes:
            s = self.segment(node)
            if _one_string(s):
                return mk.SimpleString(s)
            return self.reparse(s)  # implicit concatenation
        if v is None or v is True or v is False:
            return mk.Name(str(v))
        if t is int:
            return mk.Integer(self.segment(node))
        if t is float:
            return mk.Float(self.segment(node))
        if t is complex:
            return mk.Imaginary(self.segment(node))
        if v is ...:
            return mk.Ellipsis()
        raise Unsupported(f"constant {t.__name__}")

    def x_JoinedStr(self, node: ast.JoinedStr) -> Any:
        return self.reparse(self.segment(node))

    def reparse(self, s: str) -> Any:
        """libcst's own parse of one string expression (f-strings, implicit
        concatenation: CPython 3.11's tree loses where their parts are)."""
        try:
            e = cst.parse_expression(f"({s})")
        except cst.ParserSyntaxError as exc:
            raise Unsupported("string") from exc
        if "\n" in s or "\r" in s:
            return e  # its parentheses keep the printed code valid
        return e.with_changes(lpar=(), rpar=())

    def x_Attribute(self, node: ast.Attribute) -> Any:
        return mk.Attribute(self.operand(node.value, _P_ATOM), mk.Name(node.attr))

    def x_Call(self, node: ast.Call) -> Any:
        args = node.args
        kws = node.keywords
        if kws and args and (kws[0].lineno, kws[0].col_offset) < (args[-1].lineno, args[-1].col_offset):
            items = sorted([*args, *kws], key=lambda n: (n.lineno, n.col_offset))
        else:
            items = [*args, *kws]
        out = []
        expr = self.expr
        for a in items:
            t = type(a)
            if t is ast.keyword:
                if a.arg is None:
                    out.append(mk.Arg(expr(a.value), star="**"))
                else:
                    out.append(mk.Arg(expr(a.value), keyword=mk.Name(a.arg)))
            elif t is ast.Starred:
                out.append(mk.Arg(expr(a.value), star="*"))
            else:
                out.append(mk.Arg(expr(a), star=""))
        return mk.Call(self.operand(node.func, _P_ATOM), out)

    def x_Subscript(self, node: ast.Subscript) -> Any:
        s = node.slice
        if type(s) is ast.Tuple and s.elts and not self.parenthesized(s):
            elems = [mk.SubscriptElement(self.subscript_part(e)) for e in s.elts]
            if len(elems) == 1:  # x[a,]
                elems = [mk.SubscriptElement(elems[0].slice, comma=cst.Comma())]
        else:
            elems = [mk.SubscriptElement(self.subscript_part(s))]
        return mk.Subscript(self.operand(node.value, _P_ATOM), elems)

    def subscript_part(self, e: ast.AST) -> Any:
        if type(e) is ast.Slice:
            return mk.Slice(self.opt(e.lower), self.opt(e.upper), self.opt(e.step),  # type: ignore[attr-defined]
                            second_colon=cst.Colon() if e.step is not None else cst.MaybeSentinel.DEFAULT)  # type: ignore[attr-defined]
        if type(e) is ast.Starred:
            return mk.Index(self.expr(e.value), star="*")  # type: ignore[attr-defined]
        return mk.Index(self.expr(e))

    def parenthesized(self, node: ast.AST) -> bool:
        """Whether a tuple's source is one parenthesised group ``(a, b)``."""
        i = self.starts[node.lineno - 1] + node.col_offset  # type: ignore[attr-defined]
        if self.src[i:i + 1] not in ("(", b"("):
            return False
        s = self.segment(node)
        depth = 0
        quote = None
        i, n = 0, len(s)
        while i < n:
            ch = s[i]
            if quote is not None:
                if ch == "\\":
                    i += 1
                elif s.startswith(quote, i):
                    i += len(quote) - 1
                    quote = None
            elif ch in "'\"":
                quote = ch * 3 if s.startswith(ch * 3, i) else ch
                i += len(quote) - 1
            elif ch == "#":
                m = _NEWLINE.search(s, i)
                i = n if m is None else m.start()
            elif ch in "([{":
                depth += 1
            elif ch in ")]}":
                depth -= 1
                if depth == 0:
                    return i == n - 1
            i += 1
        return False  # pragma: no cover - unbalanced: cannot be

    def x_BinOp(self, node: ast.BinOp) -> Any:
        p = _BIN_PREC[type(node.op)]
        if p == _P_POWER:  # right-associative
            left = self.operand(node.left, p + 1)
            right = self.operand(node.right, p)
        else:
            left = self.operand(node.left, p)
            right = self.operand(node.right, p + 1)
        return mk.BinaryOperation(left, _BINOPS[type(node.op)], right)

    def x_UnaryOp(self, node: ast.UnaryOp) -> Any:
        op = type(node.op)
        p = _P_NOT if op is ast.Not else _P_FACTOR
        return mk.UnaryOperation(_UNARYOPS[op], self.operand(node.operand, p))

    def x_BoolOp(self, node: ast.BoolOp) -> Any:
        op = _BOOLOPS[type(node.op)]
        p = _P_AND if type(node.op) is ast.And else _P_OR
        values = node.values
        out = self.operand(values[0], p + 1)
        for v in values[1:]:
            out = mk.BooleanOperation(out, op, self.operand(v, p + 1))
        return out

    def x_Compare(self, node: ast.Compare) -> Any:
        targets = [mk.ComparisonTarget(_CMPOPS[type(op)], self.operand(c, _P_CMP + 1))
                   for op, c in zip(node.ops, node.comparators)]
        return mk.Comparison(self.operand(node.left, _P_CMP + 1), targets)

    def x_IfExp(self, node: ast.IfExp) -> Any:
        return mk.IfExp(self.operand(node.test, _P_TEST + 1), self.operand(node.body, _P_TEST + 1),
                        self.operand(node.orelse, _P_TEST))

    def x_Lambda(self, node: ast.Lambda) -> Any:
        return mk.Lambda(self.parameters(node.args, lam=True), self.operand(node.body, _P_TEST))

    def x_NamedExpr(self, node: ast.NamedExpr) -> Any:
        return mk.NamedExpr(self.expr(node.target), self.operand(node.value, _P_TEST), lpar=_LPAR, rpar=_RPAR)

    def x_Await(self, node: ast.Await) -> Any:
        return mk.Await(self.operand(node.value, _P_ATOM))

    # in parentheses: valid wherever it stands (`f((yield))`, `return (yield)`)
    def x_Yield(self, node: ast.Yield) -> Any:
        return mk.Yield(self.opt(node.value), lpar=_LPAR, rpar=_RPAR)

    def x_YieldFrom(self, node: ast.YieldFrom) -> Any:
        return mk.Yield(mk.From(self.expr(node.value)), lpar=_LPAR, rpar=_RPAR)

    def x_Starred(self, node: ast.Starred) -> Any:
        return mk.StarredElement(self.expr(node.value))

    def elements(self, elts: list) -> list:
        out = []
        for e in elts:
            if type(e) is ast.Starred:
                out.append(mk.StarredElement(self.operand(e.value, _P_BOR)))
            else:
                out.append(mk.Element(self.expr(e)))
        return out

    def x_Tuple(self, node: ast.Tuple) -> Any:
        if not node.elts or self.parenthesized(node):
            return mk.Tuple(self.elements(node.elts), lpar=_LPAR, rpar=_RPAR)
        return mk.Tuple(self.elements(node.elts), lpar=(), rpar=())

    def x_List(self, node: ast.List) -> Any:
        return mk.List(self.elements(node.elts))

    def x_Set(self, node: ast.Set) -> Any:
        return mk.Set(self.elements(node.elts))

    def x_Dict(self, node: ast.Dict) -> Any:
        out = []
        for k, v in zip(node.keys, node.values):
            if k is None:
                out.append(mk.StarredDictElement(self.operand(v, _P_BOR)))
            else:
                out.append(mk.DictElement(self.expr(k), self.expr(v)))
        return mk.Dict(out)

    def comp_for(self, generators: list) -> Any:
        inner = None
        for g in reversed(generators):
            ifs = [mk.CompIf(self.operand(t, _P_TEST + 1)) for t in g.ifs]
            inner = mk.CompFor(self.expr(g.target), self.operand(g.iter, _P_TEST + 1), ifs, inner,
                               cst.Asynchronous() if g.is_async else None)
        return inner

    def x_ListComp(self, node: ast.ListComp) -> Any:
        return mk.ListComp(self.expr(node.elt), self.comp_for(node.generators))

    def x_SetComp(self, node: ast.SetComp) -> Any:
        return mk.SetComp(self.expr(node.elt), self.comp_for(node.generators))

    def x_GeneratorExp(self, node: ast.GeneratorExp) -> Any:
        return mk.GeneratorExp(self.expr(node.elt), self.comp_for(node.generators), lpar=_LPAR, rpar=_RPAR)

    def x_DictComp(self, node: ast.DictComp) -> Any:
        return mk.DictComp(self.expr(node.key), self.expr(node.value), self.comp_for(node.generators))

    def x_Slice(self, node: ast.Slice) -> Any:  # pragma: no cover - only inside subscripts
        raise Unsupported("slice outside a subscript")

    # -- parameters ----------------------------------------------------------
    def param(self, a: ast.arg, default: Optional[ast.AST], star: str, lam: bool) -> Any:
        ann = None if lam or a.annotation is None else mk.Annotation(self.expr(a.annotation))
        return mk.Param(mk.Name(a.arg), ann, default=self.opt(default), star=star)

    def parameters(self, args: ast.arguments, lam: bool = False) -> Any:
        positional = [*args.posonlyargs, *args.args]
        defaults: list = [None] * (len(positional) - len(args.defaults)) + list(args.defaults)
        pp = [self.param(a, d, "", lam) for a, d in zip(positional, defaults)]
        n = len(args.posonlyargs)
        posonly, params = pp[:n], pp[n:]
        kwonly = [self.param(a, d, "", lam) for a, d in zip(args.kwonlyargs, args.kw_defaults)]
        if args.vararg is not None:
            star_arg: Any = self.param(args.vararg, None, "*", lam)
        elif kwonly:
            star_arg = cst.ParamStar()
        else:
            star_arg = cst.MaybeSentinel.DEFAULT
        star_kwarg = None if args.kwarg is None else self.param(args.kwarg, None, "**", lam)
        return mk.Parameters(params, star_arg, kwonly, star_kwarg, posonly,
                             cst.ParamSlash() if posonly else cst.MaybeSentinel.DEFAULT)

    # -- statements ----------------------------------------------------------
    def block(self, stmts: list) -> Any:
        if not self.own_line(stmts[0]):
            return mk.SimpleStatementSuite([self.small(s) for s in stmts])
        return mk.IndentedBlock(self.statements(stmts))

    def continued(self, i: int) -> bool:
        """Whether line ``i`` (0-based) ends with a backslash: a line continuation,
        or a comment after code that ends with one (left to libcst all the same);
        a line that is only a comment continues nothing."""
        if i < 0:
            return False
        if self.ascii:
            line = self.line(i).rstrip("\r\n")
            return line.endswith("\\") and not line.lstrip().startswith("#")
        line = self.line(i).rstrip(b"\r\n")
        return line.endswith(b"\\") and not line.lstrip().startswith(b"#")

    def statements(self, stmts: list) -> list:
        out: list = []
        line: list = []
        last_end = -1
        for s in stmts:
            fn = _STMT.get(type(s))
            if fn is None:
                raise Unsupported(type(s).__name__)
            if s.lineno != last_end and self.continued(s.lineno - 2):
                # `if a: \` + newline + `    b` (libcst: a one-line suite), `x = 1; \` +
                # newline + `y = 2` (one line), a line of only `\` (libcst's tokenizer
                # can put the next statement in the block above)
                raise Unsupported("a statement after a line continuation")
            if type(s) not in _COMPOUND:
                if line and s.lineno == last_end:
                    line.append(fn(self, s))
                else:
                    line = [fn(self, s)]
                    out.append(line)
                last_end = s.end_lineno
            else:
                line = []
                last_end = -1
                out.append(fn(self, s))
        return [mk.SimpleStatementLine(x) if type(x) is list else x for x in out]

    def small(self, s: ast.AST) -> Any:
        fn = _STMT.get(type(s))
        if fn is None or type(s) in _COMPOUND:
            raise Unsupported(type(s).__name__)
        return fn(self, s)

    def s_Expr(self, s: ast.Expr) -> Any:
        return mk.Expr(self.expr(s.value))

    def s_Assign(self, s: ast.Assign) -> Any:
        return mk.Assign([mk.AssignTarget(self.expr(t)) for t in s.targets], self.expr(s.value))

    def s_AugAssign(self, s: ast.AugAssign) -> Any:
        return mk.AugAssign(self.expr(s.target), _AUGOPS[type(s.op)], self.expr(s.value))

    def s_AnnAssign(self, s: ast.AnnAssign) -> Any:
        return mk.AnnAssign(self.expr(s.target), mk.Annotation(self.expr(s.annotation)), self.opt(s.value))

    def s_Return(self, s: ast.Return) -> Any:
        return mk.Return(self.opt(s.value))

    def s_Raise(self, s: ast.Raise) -> Any:
        return mk.Raise(self.opt(s.exc), None if s.cause is None else mk.From(self.expr(s.cause)))

    def s_Assert(self, s: ast.Assert) -> Any:
        return mk.Assert(self.expr(s.test), self.opt(s.msg))

    def s_Delete(self, s: ast.Delete) -> Any:
        if len(s.targets) == 1 and not self.segment(s).endswith(","):  # `del a,`: a tuple
            return mk.Del(self.expr(s.targets[0]))
        return mk.Del(mk.Tuple(self.elements(s.targets), lpar=(), rpar=()))

    def s_Pass(self, s: ast.Pass) -> Any:
        return mk.Pass()

    def s_Break(self, s: ast.Break) -> Any:
        return mk.Break()

    def s_Continue(self, s: ast.Continue) -> Any:
        return mk.Continue()

    def s_Global(self, s: ast.Global) -> Any:
        return mk.Global([mk.NameItem(mk.Name(n)) for n in s.names])

    def s_Nonlocal(self, s: ast.Nonlocal) -> Any:
        return mk.Nonlocal([mk.NameItem(mk.Name(n)) for n in s.names])

    def dotted(self, name: str) -> Any:
        parts = name.split(".")
        out = mk.Name(parts[0])
        for p in parts[1:]:
            out = mk.Attribute(out, mk.Name(p))
        return out

    def alias(self, a: ast.alias) -> Any:
        return mk.ImportAlias(self.dotted(a.name), None if a.asname is None else mk.AsName(mk.Name(a.asname)))

    def s_Import(self, s: ast.Import) -> Any:
        return mk.Import([self.alias(a) for a in s.names])

    def s_ImportFrom(self, s: ast.ImportFrom) -> Any:
        if len(s.names) == 1 and s.names[0].name == "*":
            names: Any = cst.ImportStar()
        else:
            names = [self.alias(a) for a in s.names]
        return mk.ImportFrom(None if s.module is None else self.dotted(s.module), names,
                             relative=[cst.Dot()] * (s.level or 0))

    def decorators(self, s: Any) -> list:
        return [mk.Decorator(self.expr(d)) for d in s.decorator_list]

    def s_FunctionDef(self, s: Any, asynchronous: Any = None) -> Any:
        if getattr(s, "type_params", None):
            raise Unsupported("type parameters")
        return mk.FunctionDef(mk.Name(s.name), self.parameters(s.args), self.block(s.body),
                              self.decorators(s), None if s.returns is None else mk.Annotation(self.expr(s.returns)),
                              asynchronous)

    def s_AsyncFunctionDef(self, s: Any) -> Any:
        return self.s_FunctionDef(s, cst.Asynchronous())

    def s_ClassDef(self, s: ast.ClassDef) -> Any:
        if getattr(s, "type_params", None):
            raise Unsupported("type parameters")
        bases = [mk.Arg(self.expr(b.value), star="*") if type(b) is ast.Starred
                 else mk.Arg(self.expr(b), star="") for b in s.bases]
        keywords = [mk.Arg(self.expr(k.value), star="**") if k.arg is None
                    else mk.Arg(self.expr(k.value), keyword=mk.Name(k.arg), star="") for k in s.keywords]
        return mk.ClassDef(mk.Name(s.name), self.block(s.body), bases, keywords, self.decorators(s))

    def orelse(self, stmts: list) -> Any:
        if not stmts:
            return None
        return mk.Else(self.block(stmts))

    def s_If(self, s: ast.If) -> Any:
        orelse = None
        if s.orelse:
            first = s.orelse[0]
            if len(s.orelse) == 1 and type(first) is ast.If and self._is_elif(first):
                orelse = self.s_If(first)
            else:
                orelse = mk.Else(self.block(s.orelse))
        return mk.If(self.expr(s.test), self.block(s.body), orelse)

    def _is_elif(self, s: ast.If) -> bool:
        i = self.starts[s.lineno - 1] + s.col_offset
        return self.src[i:i + 4] == ("elif" if self.ascii else b"elif")

    def s_For(self, s: Any, asynchronous: Any = None) -> Any:
        return mk.For(self.expr(s.target), self.expr(s.iter), self.block(s.body), self.orelse(s.orelse), asynchronous)

    def s_AsyncFor(self, s: Any) -> Any:
        return self.s_For(s, cst.Asynchronous())

    def s_While(self, s: ast.While) -> Any:
        return mk.While(self.expr(s.test), self.block(s.body), self.orelse(s.orelse))

    def s_With(self, s: Any, asynchronous: Any = None) -> Any:
        items = [mk.WithItem(self.expr(i.context_expr),
                             None if i.optional_vars is None else mk.AsName(self.expr(i.optional_vars)))
                 for i in s.items]
        return mk.With(items, self.block(s.body), asynchronous)

    def s_AsyncWith(self, s: Any) -> Any:
        return self.s_With(s, cst.Asynchronous())

    def handler(self, h: ast.ExceptHandler, star: bool) -> Any:
        name = None if h.name is None else mk.AsName(mk.Name(h.name))
        make = mk.ExceptStarHandler if star else mk.ExceptHandler
        return make(self.block(h.body), self.opt(h.type), name)

    def s_Try(self, s: Any, star: bool = False) -> Any:
        handlers = [self.handler(h, star) for h in s.handlers]
        final = None if not s.finalbody else mk.Finally(self.block(s.finalbody))
        make = mk.TryStar if star else mk.Try
        return make(self.block(s.body), handlers, self.orelse(s.orelse), final)

    def s_TryStar(self, s: Any) -> Any:
        return self.s_Try(s, star=True)

    def s_Match(self, s: Any) -> Any:
        """libcst's own parse of the statement's lines (rare; its patterns are many).
        The lines keep their indentation (a string that spans lines keeps its text):
        an indented statement is parsed as the body of an ``if 1:``."""
        c = s.col_offset
        text = self.src[self.starts[s.lineno - 1]:self.starts[s.end_lineno]]
        if not self.ascii:
            text = text.decode("utf-8")
        if text[:c].strip():
            raise Unsupported("match statement after other code on its line")  # pragma: no cover
        text = text.rstrip("\r\n") + "\n"
        try:
            if not c:
                return cst.parse_statement(text)
            return cst.parse_statement("if 1:\n" + text).body.body[0]
        except cst.ParserSyntaxError as exc:
            raise Unsupported("match statement") from exc


_COMPOUND = {
    ast.FunctionDef: True, ast.AsyncFunctionDef: True, ast.ClassDef: True, ast.If: True, ast.For: True,
    ast.AsyncFor: True, ast.While: True, ast.With: True, ast.AsyncWith: True, ast.Try: True,
}
for _name in ("TryStar", "Match"):
    if hasattr(ast, _name):
        _COMPOUND[getattr(ast, _name)] = True


# ast class -> the _Builder method that builds it (x_Name builds ast.Name...)
_EXPR = {getattr(ast, n[2:]): f for n, f in vars(_Builder).items() if n.startswith("x_")}
_STMT = {getattr(ast, n[2:]): f for n, f in vars(_Builder).items() if n.startswith("s_") and hasattr(ast, n[2:])}

_PAREN_SETTERS: dict = {}


def _paren(node: Any) -> Any:
    """``node`` (just built, seen by nothing else yet) in parentheses."""
    setters = _PAREN_SETTERS.get(type(node))
    if setters is None:
        try:
            setters = (libcst_compat.slot_setter(type(node), "lpar"), libcst_compat.slot_setter(type(node), "rpar"))
        except libcst_compat.LayoutError as exc:  # pragma: no cover - a class without those slots
            raise Unsupported(str(exc)) from None
        _PAREN_SETTERS[type(node)] = setters
    setters[0](node, _LPAR)
    setters[1](node, _RPAR)
    return node


def from_ast(tree: ast.Module, text: str) -> cst.Module:
    """A libcst tree for ``text`` built from ``tree`` (CPython's tree of the same
    text).  Raises ``Unsupported`` where only libcst's parser will do (and
    always while ``DISABLED``)."""
    if DISABLED is not None:
        raise Unsupported(DISABLED)
    b = _Builder(text)
    body = b.statements(tree.body) if tree.body else []
    return mk.Module(body)
