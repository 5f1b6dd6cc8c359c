from .point import PointMass
from .smbh import SMBH
