"""Stand-in for axlearn.common.config: the pieces the layers below use."""

from typing import Optional

REQUIRED = None
Required = Optional


def config_class(cls):
    return cls


class Configurable:
    """A class built from its Config: default_config().set(...).instantiate()."""

    class Config:
        klass = None

        def set(self, **kwargs):
            for k, v in kwargs.items():
                setattr(self, k, v)
            return self

        def instantiate(self):
            return self.klass(self)

    @classmethod
    def default_config(cls):
        cfg = cls.Config()
        cfg.klass = cls
        return cfg

    def __init__(self, cfg):
        self.config = cfg
