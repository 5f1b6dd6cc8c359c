from .classical import ClassicalResult, ClassicalSim
from .simdevices import Detector, Laser
