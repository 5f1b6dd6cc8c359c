from tn4ml_lite.models.lotenet import squeeze_image

__all__ = ["squeeze_image"]
