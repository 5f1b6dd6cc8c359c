import jax.numpy as jnp

from simphony_lite.circuit import Circuit
from simphony_lite.simulation import ClassicalSim, Detector, Laser

if __name__ == "__main__":
    ckt = Circuit([Laser("o0", power=1.0), Detector("o1")])
    sim = ClassicalSim(ckt, jnp.linspace(1.5, 1.6, 5))
    result = sim.run()
    print("power:", [round(float(v), 3) for v in abs(result.output[:, 1]) ** 2])
