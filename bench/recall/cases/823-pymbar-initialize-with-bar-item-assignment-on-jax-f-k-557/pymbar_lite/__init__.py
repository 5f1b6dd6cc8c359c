from pymbar_lite.mbar import MBAR
