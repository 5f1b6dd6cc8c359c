from counters.counter import CounterWithState

__all__ = ["CounterWithState"]
