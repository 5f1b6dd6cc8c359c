class Algorithm:
    @classmethod
    def train(cls, config, rng):
        raise NotImplementedError
