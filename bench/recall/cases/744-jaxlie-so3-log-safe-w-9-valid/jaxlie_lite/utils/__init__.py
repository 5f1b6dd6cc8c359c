from jaxlie_lite.utils._utils import get_epsilon
