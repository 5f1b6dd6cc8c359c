class WeakLensing:
    def __init__(self, redshift_bins):
        self.redshift_bins = redshift_bins
