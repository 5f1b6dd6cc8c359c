from advection.step import test_should_fail

__all__ = ["test_should_fail"]
