from .nvar import NVAR
