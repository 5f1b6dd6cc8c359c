from foo_pkg.module import Foo

__all__ = ["Foo"]
