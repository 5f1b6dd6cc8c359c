from autogalaxy_lite.profiles.mass.point.point import PointMass
from autogalaxy_lite.profiles.mass.point.smbh import SMBH
