from flax import optim


class FlaxAdamConfig:
    learning_rate: float = 1e-3

    def create_optimizer_def(self):
        return optim.Adam(learning_rate=self.learning_rate)
