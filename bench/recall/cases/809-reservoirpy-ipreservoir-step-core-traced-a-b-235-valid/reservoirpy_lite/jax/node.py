class TrainableNode:
    initialized = False
    state = None

    def step(self, x):
        if not self.initialized:
            self.initialize(x)
        self.state = self._step(self.state, x)
        return self.state["out"]
