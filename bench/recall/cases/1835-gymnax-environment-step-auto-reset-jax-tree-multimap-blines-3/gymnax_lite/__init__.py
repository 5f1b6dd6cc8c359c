from gymnax_lite.registration import make

__all__ = ["make"]
