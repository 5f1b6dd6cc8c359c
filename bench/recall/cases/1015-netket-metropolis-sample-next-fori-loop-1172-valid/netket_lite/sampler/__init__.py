from .metropolis import MetropolisSampler, MetropolisSamplerState

__all__ = ["MetropolisSampler", "MetropolisSamplerState"]
