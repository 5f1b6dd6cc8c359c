from transformer import optimizer_config as opt_config


class Trainer:
    def train(self):
        return opt_config.FlaxAdamConfig().create_optimizer_def()
