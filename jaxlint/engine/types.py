"""The plain data a check hands to the engine: reports and their fixes."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Optional, Union

import libcst as cst

from jaxlint.findings import Applicability


@dataclass(frozen=True)
class Replacement:
    """Replace ``node`` by ``new`` (a libcst node or source text) in the file."""

    node: cst.CSTNode
    new: Union[cst.CSTNode, str]


@dataclass(frozen=True)
class RuleFix:
    applicability: Applicability
    message: str
    replacements: tuple[Replacement, ...]
    # imports the new code needs, as (module, None) for ``import module`` or
    # (module, name) for ``from module import name``; each is added once, at
    # the top of the file, only where the module does not bind it already.
    # Use ``Check.module_alias`` first to reuse an existing ``import jax as j``.
    needs_import: tuple[tuple[str, Optional[str]], ...] = ()


@dataclass
class Report:
    """A finding as a check reports it, before positions are resolved."""

    code: str
    node: cst.CSTNode
    message: str
    fix: Optional[RuleFix] = None
    function: Optional[str] = None
    end_node: Optional[cst.CSTNode] = None
    # another node whose line the message mentions as ``{related_line}``
    related: Optional[cst.CSTNode] = None
    # another node whose first line's `# noqa` suppresses it too (where the finding was
    # reported before: JAX120's multi-line `where`)
    noqa_also: Optional[cst.CSTNode] = None
    # the trace's origins in other files (``Unit.origins``), set by the engine
    origins: tuple[tuple[str, int, str], ...] = ()
