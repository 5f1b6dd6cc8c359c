from timemachine_lite.potentials import generic
