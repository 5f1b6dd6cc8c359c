import dataclasses


@dataclasses.dataclass
class Config:
    some_value: int
    # many other values omitted


EVAL_CONFIG = Config(some_value=3)
