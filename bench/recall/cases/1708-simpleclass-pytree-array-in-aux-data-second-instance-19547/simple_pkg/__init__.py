from simple_pkg.containers import SimpleClass

__all__ = ["SimpleClass"]
