from .signals import Signal
