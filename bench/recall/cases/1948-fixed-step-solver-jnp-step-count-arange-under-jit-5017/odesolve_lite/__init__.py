from odesolve_lite.fixed import jaxfixedsolve
