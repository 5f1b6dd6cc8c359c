"""JAX002 unknown-noqa-code: A `# noqa` or `# jaxlint: ignore[...]` names a jaxlint code that is no rule, so it suppresses nothing."""

from jaxlint.engine.rule import Invalid, Rule, Valid
from jaxlint.findings import Severity


class UnknownNoqaCodeRule(Rule):
    code = "JAX002"
    name = "unknown-noqa-code"
    runtime_check = "None: a comment, nothing runs."
    summary = ("A `# noqa` or `# jaxlint: ignore[...]` names a jaxlint code that is no rule "
               "(`JAX9999`, `JAX-101`), so it suppresses nothing")
    severity = Severity.WARNING
    about_tracing = False
    seed = "(engine)"
    what_it_does = (
        "Reports each jaxlint code written in a `# noqa: ...` or `# jaxlint: ignore[...]` "
        "comment that names no rule: a misspelt code (`JAX1010`, `JAX-101`, `JAX_101`), a "
        "prefix (`JAX1`: prefixes select rules in the configuration, not in `# noqa`), a "
        "word `JAX` alone, or a code from another version of jaxlint. Such a code "
        "suppresses nothing, so the finding it was meant to silence is still reported "
        "(and a `# noqa:` whose first word is such a code is not a blanket `# noqa`). "
        "One finding per code written, at the code, with the closest rule code when "
        "one is close.\n\n"
        "Codes are read in any case, as flake8 reads them: `# noqa: jax101` is JAX101 "
        "and suppresses it. Other tools' codes (`E501`, `F401`, `B008`) are not "
        "jaxlint's and are never reported, and a `# noqa` inside a string is not a "
        "comment. Like Ruff's RUF102 (invalid-rule-code)."
    )
    why_bad = (
        "A suppression that suppresses nothing reads as if the line were checked and "
        "accepted, while the finding it meant to silence goes on failing the run (or "
        "a misspelt code silently stops doing its job after a rename)."
    )
    use_instead = "```python\nx = x.at[0].set(1.0)  # noqa: JAX101\n```"
    fix_safety = (
        "The fix removes the unknown code (and its comma) from the directive, or the "
        "whole directive when it was the only code and nothing follows it on the line. "
        "It is safe: the code suppressed nothing, so every finding stays as it was. "
        "There is no fix when the comment goes on after the code (removing the "
        "directive would leave a blanket `# noqa:` or cut the comment)."
    )
    # Reported by the linter from the comments, for every file that parses.
    VALID = [
        Valid(
            """
            import jax.numpy as jnp

            x = jnp.zeros(3)
            x[0] = 1.0  # noqa: JAX101
            y = x  # noqa: jax101, E501
            z = x  # jaxlint: ignore[JAX201]
            """
        ),
        Valid(
            """
            # Other tools' codes, a blanket noqa, and a directive in a string.
            import os  # noqa: F401
            import jax  # noqa
            HELP = "write `# noqa: JAX9999` to see JAX002"
            w = 1  # type: ignore  # noqa: B008, E501
            """
        ),
    ]
    INVALID = [
        Invalid(
            """
            import jax.numpy as jnp

            x = jnp.zeros(3)
            y = x + 1  # noqa: JAX9999
            z = x * 2  # noqa: E501, JAX1010
            """,
            expected=[(4, 20), (5, 26)],
            messages=[
                "`JAX9999` in `# noqa` is not a jaxlint rule code, so it suppresses nothing "
                "(see `jaxlint rules`)",
                "`JAX1010` in `# noqa` is not a jaxlint rule code, so it suppresses nothing: "
                "did you mean `JAX101` or `JAX110`?",
            ],
            fixed="""
            import jax.numpy as jnp

            x = jnp.zeros(3)
            y = x + 1
            z = x * 2  # noqa: E501
            """,
        ),
        Invalid(
            """
            import jax

            def f(x):
                return x  # noqa: JAX-201, jax_401
            g = jax.jit(f)  # jaxlint: ignore[JAX2]
            h = g  # noqa: JAX -- kept for the old API
            """,
            expected=[(4, 23), (4, 32), (5, 35), (6, 16)],
            messages=[
                "`JAX-201` in `# noqa` is not a jaxlint rule code, so it suppresses nothing: "
                "did you mean `JAX201`?",
                "`jax_401` in `# noqa` is not a jaxlint rule code, so it suppresses nothing: "
                "did you mean `JAX401`?",
                "`JAX2` in `# jaxlint: ignore[...]` is not a jaxlint rule code, so it suppresses "
                "nothing (see `jaxlint rules`)",
                "`JAX` in `# noqa` is not a jaxlint rule code, so it suppresses nothing "
                "(see `jaxlint rules`)",
            ],
        ),
    ]
