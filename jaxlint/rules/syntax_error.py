"""JAX001: the file could not be parsed."""

from jaxlint.findings import Severity
from jaxlint.engine.rule import Rule


class SyntaxErrorRule(Rule):
    code = "JAX001"
    name = "syntax-error"
    summary = "The file does not parse as Python, so no other rule could check it"
    severity = Severity.ERROR
    seed = "(engine)"
    what_it_does = (
        "Reports a file that libcst cannot parse, with the parser's line, column "
        "and message. The rest of the run goes on; only this file is skipped."
    )
    why_bad = (
        "A file that does not parse cannot be imported, traced or checked: every "
        "other jaxlint rule is silent on it, so a green run would be a false comfort."
    )
    example = "```python\ndef f(x)\n    return x\n```"
    use_instead = "```python\ndef f(x):\n    return x\n```"
    fix_safety = "There is no fix: the file must be repaired by hand."
    # Produced by the engine, not by a hook; its examples are tested by the engine tests.
