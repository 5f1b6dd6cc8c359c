from .intrinsic_plasticity import IPReservoir
