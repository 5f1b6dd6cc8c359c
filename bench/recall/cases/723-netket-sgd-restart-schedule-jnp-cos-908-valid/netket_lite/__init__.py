from netket_lite import optimizer
from netket_lite.driver import VMC
