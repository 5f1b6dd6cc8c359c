from solver.project import project_nonnegative

__all__ = ["project_nonnegative"]
