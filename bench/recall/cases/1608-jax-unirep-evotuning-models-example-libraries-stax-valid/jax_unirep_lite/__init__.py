from .evotuning_models import mlstm64
