from .module import MyModule
from .fit import fit
