from discopy_lite.quantum.gates import Rx, Rz, Circuit
