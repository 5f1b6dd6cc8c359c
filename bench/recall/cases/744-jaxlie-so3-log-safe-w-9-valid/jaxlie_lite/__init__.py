from jaxlie_lite._so3 import SO3
