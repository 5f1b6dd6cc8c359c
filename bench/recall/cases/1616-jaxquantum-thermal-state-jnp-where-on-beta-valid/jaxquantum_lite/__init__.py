from jaxquantum_lite.core.operators import basis, thermal
from jaxquantum_lite.core.qarray import Qarray
