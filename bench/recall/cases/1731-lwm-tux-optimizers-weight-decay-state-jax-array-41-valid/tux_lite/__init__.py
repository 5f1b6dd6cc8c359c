from .optimizers import (OptaxScheduledWeightDecayState,
                         optax_add_scheduled_weight_decay)
