from pmwd_lite.configuration import Configuration
from pmwd_lite.cosmology import Cosmology
from pmwd_lite.modes import white_noise, linear_modes
