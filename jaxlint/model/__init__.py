"""The JAX model: what JAX will do with this file (see docs/architecture.md).

It knows no rule and no fixer: rules ask it questions through
``jaxlint.engine.context.RuleContext``.
"""
