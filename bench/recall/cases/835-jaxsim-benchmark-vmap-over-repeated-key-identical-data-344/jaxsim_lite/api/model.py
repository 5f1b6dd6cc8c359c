import dataclasses


@dataclasses.dataclass(frozen=True)
class JaxSimModel:
    """A model stand-in: only its number of joints."""

    n_joints: int = 4

    def dofs(self) -> int:
        return self.n_joints
