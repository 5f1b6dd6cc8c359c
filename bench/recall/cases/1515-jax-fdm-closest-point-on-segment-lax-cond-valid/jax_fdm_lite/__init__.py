from .geometry import *  # noqa F403
