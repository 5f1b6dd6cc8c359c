"""Parametrised gates whose matrices are built with NumPy (reduced)."""

import numpy as np


class Parametrized:
    def __init__(self, phase):
        self.phase = phase

    @property
    def modulus(self):
        return self.phase


class Rx(Parametrized):
    @property
    def array(self):
        half_theta = self.modulus * np.pi
        sin, cos = np.sin(half_theta), np.cos(half_theta)
        return np.array([[cos, -1j * sin], [-1j * sin, cos]])


class Rz(Parametrized):
    @property
    def array(self):
        half_theta = self.modulus * np.pi
        e1, e2 = np.exp(-1j * half_theta), np.exp(1j * half_theta)
        return np.array([[e1, 0], [0, e2]])


class Circuit:
    def __init__(self, gates):
        self.gates = gates

    def eval(self, state):
        for gate in self.gates:
            state = gate.array @ state
        return state
