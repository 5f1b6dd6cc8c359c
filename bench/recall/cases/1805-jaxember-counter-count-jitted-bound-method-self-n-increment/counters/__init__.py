from counters.counter import Counter

__all__ = ["Counter"]
