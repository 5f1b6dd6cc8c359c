class Simulation:
    """Base class for simphony simulations."""

    def __init__(self, ckt, wl) -> None:
        self.ckt = ckt
        self.wl = wl

    def run(self):
        """Run the simulation."""
        raise NotImplementedError


class SimulationResult:
    pass
