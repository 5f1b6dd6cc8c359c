from typing import Mapping, NamedTuple, Optional


class Axis(NamedTuple):
    name: str
    size: int


ResourceMapping = Mapping[str, str]


def round_axis_for_partitioning(axis: Axis, mapping: Optional[ResourceMapping] = None) -> Axis:
    """Round an axis so that it's divisible by the size of the partition it's on"""
    size = physical_axis_size(axis, mapping)
    if size is None:
        return axis
    else:
        new_size = (axis.size + size - 1) // size * size
        return Axis(axis.name, new_size)


def physical_axis_size(axis: Axis, mapping: Optional[ResourceMapping] = None) -> Optional[int]:
    """Get the physical axis size for a logical axis. This is the product of the size of all physical axes
    that this logical axis is mapped to."""
    if mapping is None:
        return None
    mesh = _get_mesh()
    name = mapping.get(axis.name)
    if name is None:
        return None
    return mesh.shape[name]


def _get_mesh():
    from jax.experimental.maps import thread_resources

    return thread_resources.env.physical_mesh
