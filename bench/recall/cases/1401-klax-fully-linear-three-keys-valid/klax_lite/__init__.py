from . import nn as nn
