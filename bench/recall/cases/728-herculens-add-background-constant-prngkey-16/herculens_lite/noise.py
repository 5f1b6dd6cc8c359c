from herculens_lite.Util import image_util


class Noise(object):
    def __init__(self, background_rms=0.1):
        self._background_rms = background_rms

    def realisation(self, model, add_gaussian=True):
        noise = 0.0
        if add_gaussian:
            noise = noise + image_util.add_background(model, sigma_bkd=self._background_rms)
        return noise
