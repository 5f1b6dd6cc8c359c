from brk_pkg import debug

__all__ = ["debug"]
