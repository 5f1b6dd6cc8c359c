import jax

from qiskit_dynamics_lite import Signal


def signal_value(carrier_freq):
    return Signal(1.0, carrier_freq=carrier_freq)(0.25)


if __name__ == "__main__":
    print("value:", float(jax.jit(signal_value)(2.0)))
