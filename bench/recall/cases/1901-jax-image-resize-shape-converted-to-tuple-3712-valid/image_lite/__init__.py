from image_lite.scale import ResizeMethod, resize

__all__ = ["ResizeMethod", "resize"]
