from abc import ABC


class ODEFilter(ABC):
    """Interface for filtering-based ODE solvers in ProbNum.

    Stand-in for tornadox.odefilter.ODEFilter: the constructor only (the solve
    loop, the default step rule and the default Taylor-mode initialization cut).
    """

    def __init__(self, *, steprule=None, num_derivatives=4, initialization=None):

        # Step-size selection
        self.steprule = steprule

        # Number of derivatives
        self.num_derivatives = num_derivatives

        # IWP(nu) prior -- will be assembled in initialize()
        self.iwp = None

        # Initialization strategy
        self.init = initialization
