"""The fixer: --fix / --diff / --add-noqa, each pass verified (fixcheck: a fix changes the syntax tree only in its own nodes). The fix edits themselves are made by the engine (engine/fixes.py)."""
