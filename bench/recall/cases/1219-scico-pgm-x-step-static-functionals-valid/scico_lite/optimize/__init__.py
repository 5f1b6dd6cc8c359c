from ._pgm import PGM
