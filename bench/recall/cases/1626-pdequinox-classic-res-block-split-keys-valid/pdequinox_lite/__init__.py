from .blocks import ClassicResBlock
from .physics_conv import PhysicsConv
