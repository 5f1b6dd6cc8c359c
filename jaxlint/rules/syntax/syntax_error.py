"""JAX001 syntax-error: The file does not parse as Python, so no other rule could check it."""

from jaxlint.engine.rule import Invalid, Rule, Valid
from jaxlint.findings import Severity


class SyntaxErrorRule(Rule):
    code = "JAX001"
    name = "syntax-error"
    runtime_check = 'None: a syntax error, the file cannot be run.'
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
    use_instead = "```python\ndef f(x):\n    return x\n```"
    fix_safety = "There is no fix: the file must be repaired by hand."
    # Reported by the linter when parsing fails, before any hook runs; only a file
    # that mentions JAX is parsed at all, hence the import.
    VALID = [
        Valid(
            """
            import jax

            def f(x):
                return x
            """
        ),
    ]
    INVALID = [
        Invalid(
            """
            import jax

            def f(x)
                return x
            """,
            expected=[(3, 9)],
            messages=[
                "The file does not parse: expected ':'",
            ],
        ),
    ]
