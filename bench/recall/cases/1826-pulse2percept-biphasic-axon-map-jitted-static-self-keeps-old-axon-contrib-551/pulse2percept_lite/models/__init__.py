from pulse2percept_lite.models.granley2021 import BiphasicAxonMapSpatial

__all__ = ["BiphasicAxonMapSpatial"]
