from dynamiqs_lite.stochastic import dssesolve

__all__ = ["dssesolve"]
