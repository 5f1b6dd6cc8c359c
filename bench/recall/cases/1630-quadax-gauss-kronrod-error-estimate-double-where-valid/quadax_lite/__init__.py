from .fixed_order import GaussKronrodRule
