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
        "Reports a file that Python cannot parse, with the parser's line, column "
        "and message. The rest of the run goes on; only this file is skipped.\n\n"
        "A file whose syntax only a newer Python accepts than the one running jaxlint "
        "(on Python 3.11: `type X = ...`, `def f[T](...)`, PEP 701 f-strings) is valid code, "
        "so it is not reported here: it is checked on libcst's tree, whose grammar reads that "
        "syntax (a little slower than other files); only if that fails does the run list it "
        "as \"could not be checked\" (exit code 2), naming the construct and saying to run "
        "jaxlint with the project's Python."
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
