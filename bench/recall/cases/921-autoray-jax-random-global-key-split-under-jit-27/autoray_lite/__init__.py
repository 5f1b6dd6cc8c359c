from . import autoray
from .autoray import do
