import numpy

from galpy_lite.util import coords

_K = 4.74047


class streamdf:
    def __init__(self, ro=8.0, vo=220.0):
        self._ro = ro
        self._vo = vo

    def _determine_stream_spreadLB(self, l, b, d, vlos, pmll, pmbb):
        """Determine the spread in the stream in observable coordinates"""
        tjacLB = coords.lbd_to_XYZ_jac(l, b, d, vlos, pmll, pmbb, degree=True)
        tjacLB[:3, :] /= self._ro
        tjacLB[3:, :] /= self._vo
        scale = numpy.array([1.0, 1.0, 1.0, 1.0, _K * d, _K * d])
        for jj in range(6):
            tjacLB[:, jj] *= scale[jj]
        return tjacLB
