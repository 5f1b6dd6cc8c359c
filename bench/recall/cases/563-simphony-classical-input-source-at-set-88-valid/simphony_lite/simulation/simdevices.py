class SimDevice:
    def __init__(self, port):
        self.port = port


class Laser(SimDevice):
    def __init__(self, port, power=1.0, mod_function=None):
        super().__init__(port)
        self.power = power
        self.mod_function = mod_function


class Detector(SimDevice):
    pass
