from ._base_ic import BaseIC, BaseRandomICGenerator
from ._diffused_noise import DiffusedNoise
from ._multi_channel import MultiChannelIC, RandomMultiChannelICGenerator
