import dataclasses
from typing import Any

import jax

JAXArray = Any


def dataclass(clz):
    data_clz = dataclasses.dataclass(frozen=True)(clz)
    names = [f.name for f in dataclasses.fields(data_clz)]
    return jax.tree_util.register_dataclass(data_clz, data_fields=names, meta_fields=[])
