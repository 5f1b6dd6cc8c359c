from . import utils as utils
from ._factor_graph import FactorGraph as FactorGraph
