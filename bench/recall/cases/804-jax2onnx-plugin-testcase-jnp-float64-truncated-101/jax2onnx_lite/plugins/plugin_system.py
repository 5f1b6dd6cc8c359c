PLUGIN_REGISTRY = {}


def register_primitive(**metadata):
    def decorator(cls):
        PLUGIN_REGISTRY[metadata["jaxpr_primitive"]] = (cls, metadata)
        return cls

    return decorator


class PrimitiveLeafPlugin:
    pass
