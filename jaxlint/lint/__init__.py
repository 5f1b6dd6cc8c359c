"""Linting: one file (linter: decode, guard, parse, engine, findings) and many (runner: the cache, supervised worker processes, or in this process for the language server)."""
