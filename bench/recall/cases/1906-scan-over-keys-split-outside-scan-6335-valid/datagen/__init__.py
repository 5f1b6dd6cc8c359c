from datagen.generator import DataGenerator

__all__ = ["DataGenerator"]
