from objax_lite.optimizer.momentum import Momentum
