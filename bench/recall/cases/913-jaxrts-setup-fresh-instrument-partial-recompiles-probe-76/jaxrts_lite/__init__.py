from . import instrument_function
from .plasmastate import PlasmaState
from .setup import Setup
