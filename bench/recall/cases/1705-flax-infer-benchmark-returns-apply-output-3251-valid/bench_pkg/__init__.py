from bench_pkg.model import init_model

__all__ = ["init_model"]
