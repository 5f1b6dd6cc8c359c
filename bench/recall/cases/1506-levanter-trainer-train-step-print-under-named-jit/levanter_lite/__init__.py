from .trainer import Trainer, TrainerConfig
