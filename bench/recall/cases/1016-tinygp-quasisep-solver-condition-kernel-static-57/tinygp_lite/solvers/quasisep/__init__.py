from tinygp_lite.solvers.quasisep.solver import QuasisepSolver

__all__ = ["QuasisepSolver"]
